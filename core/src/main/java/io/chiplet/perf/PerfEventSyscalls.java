package io.chiplet.perf;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.Native;
import io.chiplet.nativeio.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.OptionalInt;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The perf_event native boundary: the {@code perf_event_open} system call (through libc's {@code syscall}, since
 * glibc has no wrapper), the {@code perf_event_attr} layout, the counter ioctls, {@code read} and {@code close}.
 * Every failure is a {@link NativeCallException} naming the call, its arguments and the errno.
 *
 * <p>Constants follow {@code include/uapi/linux/perf_event.h}.
 */
public final class PerfEventSyscalls
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

    /**
     * {@code struct perf_event_attr} up to {@code config3}: {@code PERF_ATTR_SIZE_VER8}, 136 bytes. Older kernels
     * accept a larger struct as long as the bytes they do not know are zero, which ours are.
     */
    public static final StructLayout PERF_EVENT_ATTR = MemoryLayout.structLayout(
            JAVA_INT.withName("type"),
            JAVA_INT.withName("size"),
            JAVA_LONG.withName("config"),
            JAVA_LONG.withName("sample_period"),
            JAVA_LONG.withName("sample_type"),
            JAVA_LONG.withName("read_format"),
            JAVA_LONG.withName("flags"),
            JAVA_INT.withName("wakeup_events"),
            JAVA_INT.withName("bp_type"),
            JAVA_LONG.withName("config1"),
            JAVA_LONG.withName("config2"),
            JAVA_LONG.withName("branch_sample_type"),
            JAVA_LONG.withName("sample_regs_user"),
            JAVA_INT.withName("sample_stack_user"),
            JAVA_INT.withName("clockid"),
            JAVA_LONG.withName("sample_regs_intr"),
            JAVA_INT.withName("aux_watermark"),
            ValueLayout.JAVA_SHORT.withName("sample_max_stack"),
            ValueLayout.JAVA_SHORT.withName("reserved_2"),
            JAVA_INT.withName("aux_sample_size"),
            JAVA_INT.withName("reserved_3"),
            JAVA_LONG.withName("sig_data"),
            JAVA_LONG.withName("config3"));

    public static final int PERF_ATTR_SIZE_VER8 = 136;

    private static final VarHandle ATTR_TYPE = attrField("type");
    private static final VarHandle ATTR_SIZE = attrField("size");
    private static final VarHandle ATTR_CONFIG = attrField("config");
    private static final VarHandle ATTR_READ_FORMAT = attrField("read_format");
    private static final VarHandle ATTR_FLAGS = attrField("flags");
    private static final VarHandle ATTR_CONFIG1 = attrField("config1");
    private static final VarHandle ATTR_CONFIG2 = attrField("config2");

    private static final OptionalInt SYS_PERF_EVENT_OPEN = perfEventOpenNumber(System.getProperty("os.arch", ""));

    // All variadic arguments are passed as longs: glibc's syscall() reads each one with va_arg(long), and the
    // upper half of a register that held a 32-bit int is unspecified.
    private static final MethodHandle SYSCALL = Native.variadicDowncallWithErrno(
            "syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ValueLayout.ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
            1);
    private static final MethodHandle IOCTL = Native.variadicDowncallWithErrno(
            "ioctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG),
            2);
    private static final MethodHandle READ = Native.downcallWithErrno(
            "read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ValueLayout.ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = Native.downcallWithErrno(
            "close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private PerfEventSyscalls() {}

    /** The {@code perf_event_open} syscall number for a JVM {@code os.arch}, empty where we do not know it. */
    static OptionalInt perfEventOpenNumber(String osArch)
    {
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> OptionalInt.of(298);
            // arm64 and riscv64 use the asm-generic syscall table
            case "aarch64", "arm64", "riscv64" -> OptionalInt.of(241);
            case "ppc64le", "ppc64" -> OptionalInt.of(319);
            case "s390x" -> OptionalInt.of(331);
            default -> OptionalInt.empty();
        };
    }

    /** Whether this JVM's architecture has a known {@code perf_event_open} syscall number. */
    public static boolean syscallNumberKnown()
    {
        return SYS_PERF_EVENT_OPEN.isPresent();
    }

    /** A zeroed attr in {@code arena} for a counting (not sampling) event. */
    public static MemorySegment counterAttr(Arena arena, int type, long config, long config1, long config2, long readFormat, long flags)
    {
        MemorySegment attr = arena.allocate(PERF_EVENT_ATTR);
        ATTR_TYPE.set(attr, 0L, type);
        ATTR_SIZE.set(attr, 0L, PERF_ATTR_SIZE_VER8);
        ATTR_CONFIG.set(attr, 0L, config);
        ATTR_CONFIG1.set(attr, 0L, config1);
        ATTR_CONFIG2.set(attr, 0L, config2);
        ATTR_READ_FORMAT.set(attr, 0L, readFormat);
        ATTR_FLAGS.set(attr, 0L, flags);
        return attr;
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
    public static int perfEventOpen(MemorySegment attr, int pid, int cpu, int groupFd)
    {
        int number = SYS_PERF_EVENT_OPEN.orElseThrow(() -> new UnsupportedOperationException(
                "perf_event_open: unknown syscall number for os.arch " + System.getProperty("os.arch")));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            long fd = (long) SYSCALL.invokeExact(callState, (long) number, attr, (long) pid, (long) cpu, (long) groupFd, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) {
                throw new NativeCallException("perf_event_open", new Object[] {describeAttr(attr), pid, cpu, groupFd}, Native.errno(callState));
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

    /** {@code ioctl(fd, request, arg)} for the PERF_EVENT_IOC_* requests. */
    public static void ioctl(int fd, long request, long argument)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            int result = (int) IOCTL.invokeExact(callState, fd, request, argument);
            Native.check(result, callState, "ioctl", fd, "0x" + Long.toHexString(request), argument);
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** {@code read(fd, buffer, buffer.byteSize())}, returning the bytes read. */
    public static long read(int fd, MemorySegment buffer)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            long result = (long) READ.invokeExact(callState, fd, buffer, buffer.byteSize());
            return Native.check(result, callState, "read", fd, buffer.byteSize());
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /**
     * {@code read} with a caller-supplied errno capture segment, for the hot path that reads a group every few
     * milliseconds and should not allocate.
     */
    static long read(int fd, MemorySegment buffer, MemorySegment callState)
    {
        try {
            long result = (long) READ.invokeExact(callState, fd, buffer, buffer.byteSize());
            return Native.check(result, callState, "read", fd, buffer.byteSize());
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    /** {@code close(fd)}. EINTR still releases the descriptor on Linux, so it is not retried. */
    public static void close(int fd)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            int result = (int) CLOSE.invokeExact(callState, fd);
            if (result < 0 && Native.errno(callState) != Errno.EINTR) {
                throw new NativeCallException("close", new Object[] {fd}, Native.errno(callState));
            }
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new AssertionError(e);
        }
    }

    private static String describeAttr(MemorySegment attr)
    {
        return "{type=" + (int) ATTR_TYPE.get(attr, 0L)
                + ", config=0x" + Long.toHexString((long) ATTR_CONFIG.get(attr, 0L))
                + ", config1=0x" + Long.toHexString((long) ATTR_CONFIG1.get(attr, 0L)) + "}";
    }

    private static VarHandle attrField(String name)
    {
        return PERF_EVENT_ATTR.varHandle(groupElement(name));
    }
}
