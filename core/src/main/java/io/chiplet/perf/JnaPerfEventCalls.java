package io.chiplet.perf;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.JnaLibc;
import io.chiplet.nativeio.LinuxSyscallNumbers;

import static io.chiplet.perf.PerfEventSyscalls.PERF_FLAG_FD_CLOEXEC;

/** {@link PerfEventCalls} through JNA direct mapping, for JDK 17 and 21. */
final class JnaPerfEventCalls
        implements PerfEventCalls
{
    private static final long PERF_EVENT_OPEN = LinuxSyscallNumbers.orInvalid(LinuxSyscallNumbers.current().perfEventOpen());

    static {
        Native.register(JnaPerfEventCalls.class, JnaLibc.library());
    }

    private static native long syscallPerfEventOpen(long number, byte[] attr, long pid, long cpu, long groupFd, long flags)
            throws LastErrorException;

    // ioctl is variadic; its one argument is passed as a long, as the kernel reads it.
    private static native int libcIoctl(int fd, long request, long argument)
            throws LastErrorException;

    private static native long libcRead(int fd, long[] buffer, long count)
            throws LastErrorException;

    private static native int libcClose(int fd)
            throws LastErrorException;

    @Override
    public int perfEventOpen(PerfEventAttr attr, int pid, int cpu, int groupFd)
    {
        try {
            return (int) syscallPerfEventOpen(PERF_EVENT_OPEN, attr.toBytes(), pid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "perf_event_open", attr, pid, cpu, groupFd);
        }
    }

    @Override
    public void ioctl(int fd, long request, long argument)
    {
        try {
            libcIoctl(fd, request, argument);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "ioctl", fd, "0x" + Long.toHexString(request), argument);
        }
    }

    @Override
    public long read(int fd, long[] values)
    {
        long bytes = (long) values.length * 8;
        try {
            return libcRead(fd, values, bytes);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "read", fd, bytes);
        }
    }

    @Override
    public void close(int fd)
    {
        try {
            libcClose(fd);
        }
        catch (LastErrorException e) {
            if (e.getErrorCode() != Errno.EINTR) {
                throw JnaLibc.failure(e, "close", fd);
            }
        }
    }
}
