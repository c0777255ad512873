package io.chiplet.nativeio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The process-replacement family, for {@code chiplet exec}: {@code fcntl(F_GETFD/F_SETFD)} to choose which file
 * descriptors survive, {@code sigprocmask} to hand the new program an empty signal mask, and {@code execvp}.
 *
 * <p>{@code execvp} replaces the whole JVM (every thread goes, the calling one becomes the program) keeping the
 * process id, the calling thread's CPU affinity and memory policy, and every descriptor not marked close-on-exec,
 * with the POSIX record locks held through them: what {@code taskset} and {@code numactl} rely on.
 */
public final class ExecSyscalls
{
    private static final int F_GETFD = 1;
    private static final int F_SETFD = 2;
    private static final int FD_CLOEXEC = 1;
    private static final int SIG_SETMASK = 2;
    /** glibc's {@code sigset_t}: 1024 bits. */
    private static final long SIGSET_BYTES = 128;

    private static final MethodHandle FCNTL = Native.variadicDowncallWithErrno(
            "fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), 2);
    private static final MethodHandle SIGPROCMASK = Native.downcallWithErrno(
            "sigprocmask", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle EXECVP = Native.downcallWithErrno(
            "execvp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private ExecSyscalls() {}

    /**
     * Sets or clears {@code FD_CLOEXEC} on {@code fd}.
     *
     * @throws NativeCallException naming the descriptor and the errno ({@code EBADF}: closed meanwhile)
     */
    public static void setCloseOnExec(int fd, boolean closeOnExec)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Native.allocateCallState(arena);
            int flags = (int) FCNTL.invokeExact(state, fd, F_GETFD, 0);
            Native.check(flags, state, "fcntl", fd, "F_GETFD");
            int wanted = closeOnExec ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC;
            if (wanted != flags) {
                Native.check((int) FCNTL.invokeExact(state, fd, F_SETFD, wanted), state, "fcntl", fd, "F_SETFD", wanted);
            }
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Unblocks every signal for the calling thread. The JVM blocks some in its threads (SIGQUIT for the thread-dump
     * handler) and {@code execve} keeps the caller's mask, so without this the program would never see them.
     */
    public static void unblockAllSignals()
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Native.allocateCallState(arena);
            MemorySegment empty = arena.allocate(SIGSET_BYTES);
            Native.check((int) SIGPROCMASK.invokeExact(state, SIG_SETMASK, empty, MemorySegment.NULL), state, "sigprocmask", "SIG_SETMASK", "{}");
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code execvp(command[0], command)}: searches {@code PATH} as a shell does and replaces this process with the
     * program, in this process's environment. Returns only on failure.
     *
     * @return the errno of the failed {@code execvp} ({@link Errno#ENOENT}: no such program; {@link Errno#EACCES}:
     *         not executable)
     */
    public static int execvp(List<String> command)
    {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command to run");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Native.allocateCallState(arena);
            MemorySegment argv = arena.allocate(ADDRESS, command.size() + 1L);
            for (int i = 0; i < command.size(); i++) {
                argv.setAtIndex(ADDRESS, i, arena.allocateFrom(command.get(i)));
            }
            argv.setAtIndex(ADDRESS, command.size(), MemorySegment.NULL);
            int result = (int) EXECVP.invokeExact(state, argv.getAtIndex(ADDRESS, 0), argv);
            if (result >= 0) {
                throw new IllegalStateException("execvp returned " + result);
            }
            return Native.errno(state);
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
