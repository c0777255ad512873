package io.chiplet.nativeio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/** {@link ExecCalls} through the JDK's FFM API (JDK 22+). */
final class FfmExecCalls
        implements ExecCalls
{
    private static final MethodHandle FCNTL = Downcalls.variadicDowncallWithErrno(
            "fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2);
    private static final MethodHandle SIGPROCMASK = Downcalls.downcallWithErrno(
            "sigprocmask", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle EXECVP = Downcalls.downcallWithErrno(
            "execvp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    FfmExecCalls() {}

    @Override
    public void setCloseOnExec(int fd, boolean closeOnExec)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Downcalls.allocateCallState(arena);
            int flags = (int) FCNTL.invokeExact(state, fd, F_GETFD, 0);
            Downcalls.check(flags, state, "fcntl", fd, "F_GETFD");
            int wanted = closeOnExec ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC;
            if (wanted != flags) {
                Downcalls.check((int) FCNTL.invokeExact(state, fd, F_SETFD, wanted), state, "fcntl", fd, "F_SETFD", wanted);
            }
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void unblockAllSignals()
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Downcalls.allocateCallState(arena);
            MemorySegment empty = arena.allocate(SIGSET_BYTES);
            Downcalls.check((int) SIGPROCMASK.invokeExact(state, SIG_SETMASK, empty, MemorySegment.NULL), state, "sigprocmask", "SIG_SETMASK", "{}");
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public int execvp(List<String> command)
    {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command to run");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Downcalls.allocateCallState(arena);
            MemorySegment argv = arena.allocate(ADDRESS, command.size() + 1L);
            for (int i = 0; i < command.size(); i++) {
                argv.setAtIndex(ADDRESS, i, arena.allocateFrom(command.get(i)));
            }
            argv.setAtIndex(ADDRESS, command.size(), MemorySegment.NULL);
            int result = (int) EXECVP.invokeExact(state, argv.getAtIndex(ADDRESS, 0), argv);
            if (result >= 0) {
                throw new IllegalStateException("execvp returned " + result);
            }
            return Downcalls.errno(state);
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t)
    {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
