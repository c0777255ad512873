package io.chiplet.perf;

import io.chiplet.nativeio.LinuxSyscallNumbers;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativeCallException;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The perf_event native boundary: the {@code perf_event_open} system call (through libc's {@code syscall}, since
 * glibc has no wrapper), the counter ioctls, {@code read} and {@code close}, through this JVM's native path
 * ({@link NativeAccess}). Every failure is a {@link NativeCallException} naming the call, its arguments and the errno.
 *
 * <p>Constants follow {@code include/uapi/linux/perf_event.h}.
 */
final class PerfEventSyscalls
{
    public static final int PERF_TYPE_HARDWARE = 0;
    public static final int PERF_TYPE_SOFTWARE = 1;
    public static final int PERF_TYPE_TRACEPOINT = 2;
    public static final int PERF_TYPE_HW_CACHE = 3;
    /** The core PMU's raw encoding; on x86 the {@code cpu} PMU also registers as type 4. */
    public static final int PERF_TYPE_RAW = 4;

    public static final long PERF_COUNT_HW_CPU_CYCLES = 0;
    public static final long PERF_COUNT_HW_INSTRUCTIONS = 1;
    public static final long PERF_COUNT_HW_CACHE_REFERENCES = 2;
    public static final long PERF_COUNT_HW_CACHE_MISSES = 3;

    public static final long PERF_COUNT_SW_CPU_CLOCK = 0;
    public static final long PERF_COUNT_SW_TASK_CLOCK = 1;
    public static final long PERF_COUNT_SW_PAGE_FAULTS = 2;
    public static final long PERF_COUNT_SW_CONTEXT_SWITCHES = 3;
    public static final long PERF_COUNT_SW_CPU_MIGRATIONS = 4;
    public static final long PERF_COUNT_SW_PAGE_FAULTS_MIN = 5;
    public static final long PERF_COUNT_SW_PAGE_FAULTS_MAJ = 6;

    public static final long PERF_COUNT_HW_CACHE_L1D = 0;
    public static final long PERF_COUNT_HW_CACHE_LL = 2;
    public static final long PERF_COUNT_HW_CACHE_OP_READ = 0;
    public static final long PERF_COUNT_HW_CACHE_RESULT_ACCESS = 0;
    public static final long PERF_COUNT_HW_CACHE_RESULT_MISS = 1;

    public static final long PERF_FORMAT_TOTAL_TIME_ENABLED = 1;
    public static final long PERF_FORMAT_TOTAL_TIME_RUNNING = 1 << 1;
    public static final long PERF_FORMAT_ID = 1 << 2;
    public static final long PERF_FORMAT_GROUP = 1 << 3;

    /** Bits of the {@code perf_event_attr} flags word (the C bitfield starting with {@code disabled}). */
    public static final long ATTR_FLAG_DISABLED = 1;
    public static final long ATTR_FLAG_INHERIT = 1 << 1;
    public static final long ATTR_FLAG_PINNED = 1 << 2;
    public static final long ATTR_FLAG_EXCLUSIVE = 1 << 3;
    public static final long ATTR_FLAG_EXCLUDE_USER = 1 << 4;
    public static final long ATTR_FLAG_EXCLUDE_KERNEL = 1 << 5;
    public static final long ATTR_FLAG_EXCLUDE_HV = 1 << 6;
    public static final long ATTR_FLAG_EXCLUDE_IDLE = 1 << 7;

    public static final long PERF_FLAG_FD_CLOEXEC = 1 << 3;

    /** {@code _IO('$', n)}: no size or direction bits, so the same numbers on x86-64 and aarch64. */
    public static final long PERF_EVENT_IOC_ENABLE = 0x2400;
    public static final long PERF_EVENT_IOC_DISABLE = 0x2401;
    public static final long PERF_EVENT_IOC_RESET = 0x2403;
    public static final long PERF_IOC_FLAG_GROUP = 1;

    private static final PerfEventCalls CALLS = PerfEventCalls.forPath(NativeAccess.path());

    private PerfEventSyscalls() {}

    /** The {@code perf_event_open} syscall number for a JVM {@code os.arch}, empty where we do not know it. */
    static OptionalInt perfEventOpenNumber(String osArch)
    {
        OptionalLong number = LinuxSyscallNumbers.forArch(osArch).perfEventOpen();
        return number.isPresent() ? OptionalInt.of((int) number.getAsLong()) : OptionalInt.empty();
    }

    /** Whether this JVM's architecture has a known {@code perf_event_open} syscall number. */
    public static boolean syscallNumberKnown()
    {
        return LinuxSyscallNumbers.current().perfEventOpen().isPresent();
    }

    /** The attr of a counting (not sampling) event. */
    public static PerfEventAttr counterAttr(int type, long config, long config1, long config2, long readFormat, long flags)
    {
        return new PerfEventAttr(type, config, config1, config2, readFormat, flags);
    }

    /**
     * {@code perf_event_open(attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC)}.
     *
     * @param pid 0 for the calling thread, a thread id, or -1 with a CPU
     * @param cpu a CPU number, or -1 for any CPU the thread runs on
     * @param groupFd the group leader's fd, or -1 to open a leader
     * @return the new file descriptor
     * @throws NativeCallException with the errno the kernel (or a seccomp filter) returned
     * @throws UnsupportedOperationException on an architecture whose syscall number we do not know
     */
    public static int perfEventOpen(PerfEventAttr attr, int pid, int cpu, int groupFd)
    {
        if (!syscallNumberKnown()) {
            throw new UnsupportedOperationException("perf_event_open: unknown syscall number for os.arch " + System.getProperty("os.arch"));
        }
        return CALLS.perfEventOpen(attr, pid, cpu, groupFd);
    }

    /** {@code ioctl(fd, request, arg)} for the PERF_EVENT_IOC_* requests. */
    public static void ioctl(int fd, long request, long argument)
    {
        CALLS.ioctl(fd, request, argument);
    }

    /** {@code read(fd, values, values.length * 8)}, returning the bytes read; allocates nothing on the hot path. */
    public static long read(int fd, long[] values)
    {
        return CALLS.read(fd, values);
    }

    /** {@code close(fd)}. EINTR still releases the descriptor on Linux, so it is not retried. */
    public static void close(int fd)
    {
        CALLS.close(fd);
    }
}
