package io.chiplet.nativeio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * The shared plumbing of the FFM boundary: libc lookup, downcall handles that capture {@code errno}, and the
 * check that turns a failed call into a {@link NativeCallException}. Each syscall family (sched, mempolicy,
 * perf_event) keeps its own downcalls and constants in its own class built on this one.
 */
public final class Downcalls
{
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Downcalls() {}

    /** True on Linux, where the sysfs and syscall facilities exist at all. */
    public static boolean isLinux()
    {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /**
     * A downcall to the libc function {@code name} whose first argument is the errno capture segment.
     *
     * @throws UnsupportedOperationException when libc does not export the symbol
     */
    public static MethodHandle downcallWithErrno(String name, FunctionDescriptor descriptor)
    {
        MemorySegment symbol = LIBC.find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no symbol " + name));
        return LINKER.downcallHandle(symbol, descriptor, CAPTURE_ERRNO);
    }

    /**
     * Like {@link #downcallWithErrno(String, FunctionDescriptor)} for a variadic libc function such as
     * {@code syscall} or {@code ioctl}: {@code fixedArguments} counts the declared parameters after the errno
     * capture segment, and the rest of {@code descriptor} is passed as variadic arguments.
     */
    public static MethodHandle variadicDowncallWithErrno(String name, FunctionDescriptor descriptor, int fixedArguments)
    {
        return downcallWithErrno(name, descriptor, Linker.Option.firstVariadicArg(fixedArguments));
    }

    /**
     * As {@link #downcallWithErrno(String, FunctionDescriptor)} with further linker options, such as
     * {@code firstVariadicArg} for {@code syscall(2)}.
     */
    @SuppressWarnings("restricted")
    public static MethodHandle downcallWithErrno(String name, FunctionDescriptor descriptor, Linker.Option option)
    {
        MemorySegment symbol = LIBC.find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no symbol " + name));
        return LINKER.downcallHandle(symbol, descriptor, CAPTURE_ERRNO, option);
    }

    /** A downcall that cannot fail and needs no errno. */
    public static MethodHandle downcall(String name, FunctionDescriptor descriptor)
    {
        MemorySegment symbol = LIBC.find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no symbol " + name));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    /**
     * A downcall to a function that returns within nanoseconds and never blocks ({@code gettid}, {@code sched_getcpu}):
     * a critical call skips the thread-state transition that lets a safepoint proceed meanwhile, which otherwise costs
     * more than such a call itself.
     */
    @SuppressWarnings("restricted")
    public static MethodHandle downcallCritical(String name, FunctionDescriptor descriptor)
    {
        MemorySegment symbol = LIBC.find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no symbol " + name));
        return LINKER.downcallHandle(symbol, descriptor, Linker.Option.critical(false));
    }

    /** A segment to pass as a downcall's errno capture argument. */
    public static MemorySegment allocateCallState(Arena arena)
    {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    public static int errno(MemorySegment callState)
    {
        return (int) ERRNO.get(callState, 0L);
    }

    /**
     * Returns {@code result} when it is not negative; otherwise throws naming the call, its arguments and the
     * errno captured in {@code callState}.
     */
    public static long check(long result, MemorySegment callState, String call, Object... arguments)
    {
        if (result < 0) {
            throw new NativeCallException(call, arguments, errno(callState));
        }
        return result;
    }
}
