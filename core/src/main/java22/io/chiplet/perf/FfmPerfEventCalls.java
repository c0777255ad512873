package io.chiplet.perf;

import io.chiplet.nativeio.Downcalls;
import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.LinuxSyscallNumbers;
import io.chiplet.nativeio.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static io.chiplet.perf.PerfEventSyscalls.PERF_FLAG_FD_CLOEXEC;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** {@link PerfEventCalls} through the JDK's FFM API (JDK 22+). */
final class FfmPerfEventCalls
        implements PerfEventCalls
{
    private static final long PERF_EVENT_OPEN = LinuxSyscallNumbers.orInvalid(LinuxSyscallNumbers.current().perfEventOpen());

    // All variadic arguments are passed as longs: glibc's syscall() reads each one with va_arg(long), and the
    // upper half of a register that held a 32-bit int is unspecified.
    private static final MethodHandle SYSCALL = Downcalls.variadicDowncallWithErrno(
            "syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ValueLayout.ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            1);
    private static final MethodHandle IOCTL = Downcalls.variadicDowncallWithErrno(
            "ioctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            2);
    private static final MethodHandle READ = Downcalls.downcallWithErrno(
            "read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ValueLayout.ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = Downcalls.downcallWithErrno(
            "close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    // Per-thread scratch for the read that runs every few milliseconds: a thread-confined cache, not shared state.
    private static final ThreadLocal<ReadScratch> READ_SCRATCH = ThreadLocal.withInitial(ReadScratch::new);

    FfmPerfEventCalls() {}

    @Override
    public int perfEventOpen(PerfEventAttr attr, int pid, int cpu, int groupFd)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            MemorySegment struct = arena.allocate(PerfEventAttr.SIZE, 8);
            MemorySegment.copy(attr.toBytes(), 0, struct, JAVA_BYTE, 0, PerfEventAttr.SIZE);
            long fd = (long) SYSCALL.invokeExact(callState, PERF_EVENT_OPEN, struct, (long) pid, (long) cpu, (long) groupFd, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) {
                throw new NativeCallException("perf_event_open", new Object[] {attr, pid, cpu, groupFd}, Downcalls.errno(callState));
            }
            return (int) fd;
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void ioctl(int fd, long request, long argument)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            int result = (int) IOCTL.invokeExact(callState, fd, request, argument);
            Downcalls.check(result, callState, "ioctl", fd, "0x" + Long.toHexString(request), argument);
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public long read(int fd, long[] values)
    {
        ReadScratch scratch = READ_SCRATCH.get();
        long bytes = (long) values.length * 8;
        MemorySegment buffer = scratch.buffer(bytes);
        try {
            long result = (long) READ.invokeExact(scratch.callState, fd, buffer, bytes);
            Downcalls.check(result, scratch.callState, "read", fd, bytes);
            MemorySegment.copy(buffer, JAVA_LONG, 0, values, 0, (int) Math.min(values.length, result / 8));
            return result;
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close(int fd)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            int result = (int) CLOSE.invokeExact(callState, fd);
            if (result < 0 && Downcalls.errno(callState) != Errno.EINTR) {
                throw new NativeCallException("close", new Object[] {fd}, Downcalls.errno(callState));
            }
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private static final class ReadScratch
    {
        private final Arena arena = Arena.ofAuto();
        private final MemorySegment callState = Downcalls.allocateCallState(arena);
        private MemorySegment buffer = arena.allocate(256, 8);

        MemorySegment buffer(long bytes)
        {
            if (buffer.byteSize() < bytes) {
                buffer = arena.allocate(bytes, 8);
            }
            return buffer.asSlice(0, bytes);
        }
    }
}
