package io.chiplet.affinity;

import io.chiplet.nativeio.Native;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.BitSet;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The NUMA memory-policy syscall family: {@code set_mempolicy}, {@code get_mempolicy} and {@code mbind}. glibc does
 * not wrap them (libnuma does, and we do not want that dependency), so they go through {@code syscall(2)} with the
 * number of the running architecture.
 *
 * <p>Node masks are {@code unsigned long} bit arrays of {@link #MAX_NODES} bits. The kernel reads
 * {@code maxnode - 1} bits (a historical off-by-one every caller must repeat), hence {@code MAX_NODES + 1}.
 */
public final class MempolicySyscalls
{
    /** The kernel's largest {@code MAX_NUMNODES} (NODES_SHIFT 10). */
    public static final int MAX_NODES = 1024;

    public static final int MPOL_DEFAULT = 0;
    public static final int MPOL_PREFERRED = 1;
    public static final int MPOL_BIND = 2;
    public static final int MPOL_INTERLEAVE = 3;
    public static final int MPOL_LOCAL = 4;
    public static final int MPOL_PREFERRED_MANY = 5;
    public static final int MPOL_WEIGHTED_INTERLEAVE = 6;

    /** Mode flags the kernel may OR into the mode it reports; {@link #modeOf} strips them. */
    public static final int MPOL_F_STATIC_NODES = 1 << 15;
    public static final int MPOL_F_RELATIVE_NODES = 1 << 14;
    public static final int MPOL_F_NUMA_BALANCING = 1 << 13;
    private static final int MPOL_MODE_FLAGS = MPOL_F_STATIC_NODES | MPOL_F_RELATIVE_NODES | MPOL_F_NUMA_BALANCING;

    /** {@code get_mempolicy} flags. */
    public static final int MPOL_F_NODE = 1;
    public static final int MPOL_F_ADDR = 1 << 1;
    public static final int MPOL_F_MEMS_ALLOWED = 1 << 2;

    /** {@code mbind} flags. */
    public static final int MPOL_MF_STRICT = 1;
    public static final int MPOL_MF_MOVE = 1 << 1;
    public static final int MPOL_MF_MOVE_ALL = 1 << 2;

    private static final SyscallNumbers NUMBERS = SyscallNumbers.forArch(System.getProperty("os.arch", ""));

    // syscall(long number, ...): every argument after the number is variadic; passed as longs, as the kernel reads them.
    private static final MethodHandle SYSCALL3 = Native.downcallWithErrno("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle SYSCALL5 = Native.downcallWithErrno("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle SYSCALL6 = Native.downcallWithErrno("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));

    private MempolicySyscalls() {}

    /** A policy as {@code get_mempolicy} reports it: the mode (without flags) and its nodes. */
    public record Policy(int mode, BitSet nodes)
    {
        public Policy
        {
            nodes = (BitSet) nodes.clone();
        }

        @Override
        public BitSet nodes()
        {
            return (BitSet) nodes.clone();
        }
    }

    /** {@code set_mempolicy(mode, nodes)} for the calling thread. */
    public static void setMempolicy(int mode, BitSet nodes)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            MemorySegment mask = encode(arena, nodes);
            long result = (long) SYSCALL3.invokeExact(callState, NUMBERS.setMempolicy, (long) mode, mask, maxnode(nodes));
            Native.check(result, callState, "set_mempolicy", modeName(mode), "nodes " + nodes);
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    /** {@code get_mempolicy(&mode, mask, MAX_NODES + 1, NULL, 0)}: the calling thread's policy. */
    public static Policy getMempolicy()
    {
        return getMempolicy(MemorySegment.NULL, 0);
    }

    /** {@code get_mempolicy(&mode, mask, MAX_NODES + 1, address, MPOL_F_ADDR)}: the policy of the range holding address. */
    public static Policy getMempolicy(MemorySegment address)
    {
        return getMempolicy(address, MPOL_F_ADDR);
    }

    private static Policy getMempolicy(MemorySegment address, int flags)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            MemorySegment mode = arena.allocate(JAVA_INT);
            MemorySegment mask = arena.allocate(MAX_NODES / 8, 8);
            long result = (long) SYSCALL5.invokeExact(callState, NUMBERS.getMempolicy, mode, mask, (long) MAX_NODES + 1, address, (long) flags);
            Native.check(result, callState, "get_mempolicy", "addr 0x" + Long.toHexString(address.address()), "flags " + flags);
            return new Policy(modeOf(mode.get(JAVA_INT, 0)), BitSet.valueOf(mask.toArray(JAVA_BYTE)));
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    /**
     * {@code mbind(segment, segment.byteSize(), mode, nodes, flags)}. The segment must start on a page boundary;
     * the kernel rounds its length up to whole pages.
     */
    public static void mbind(MemorySegment segment, int mode, BitSet nodes, int flags)
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Native.allocateCallState(arena);
            MemorySegment mask = encode(arena, nodes);
            long result = (long) SYSCALL6.invokeExact(callState, NUMBERS.mbind, segment, segment.byteSize(), (long) mode, mask, maxnode(nodes), (long) flags);
            Native.check(result, callState, "mbind", "addr 0x" + Long.toHexString(segment.address()), segment.byteSize() + " bytes",
                    modeName(mode), "nodes " + nodes, "flags " + flags);
        }
        catch (Throwable t) {
            throw SchedSyscalls.rethrow(t);
        }
    }

    public static int modeOf(int reported)
    {
        return reported & ~MPOL_MODE_FLAGS;
    }

    public static String modeName(int mode)
    {
        return switch (modeOf(mode)) {
            case MPOL_DEFAULT -> "MPOL_DEFAULT";
            case MPOL_PREFERRED -> "MPOL_PREFERRED";
            case MPOL_BIND -> "MPOL_BIND";
            case MPOL_INTERLEAVE -> "MPOL_INTERLEAVE";
            case MPOL_LOCAL -> "MPOL_LOCAL";
            case MPOL_PREFERRED_MANY -> "MPOL_PREFERRED_MANY";
            case MPOL_WEIGHTED_INTERLEAVE -> "MPOL_WEIGHTED_INTERLEAVE";
            default -> "mode " + mode;
        };
    }

    private static MemorySegment encode(Arena arena, BitSet nodes)
    {
        if (nodes.isEmpty()) {
            return MemorySegment.NULL;
        }
        if (nodes.length() > MAX_NODES) {
            throw new IllegalArgumentException("NUMA node " + (nodes.length() - 1) + " exceeds the maximum of " + (MAX_NODES - 1));
        }
        long[] words = nodes.toLongArray();
        MemorySegment mask = arena.allocate((long) words.length * 8, 8);
        MemorySegment.copy(words, 0, mask, JAVA_LONG, 0, words.length);
        return mask;
    }

    private static long maxnode(BitSet nodes)
    {
        // The kernel reads maxnode - 1 bits; pass whole words so it reads all we wrote.
        return nodes.isEmpty() ? 0 : (long) nodes.toLongArray().length * 64 + 1;
    }

    /** Syscall numbers differ per architecture; these are the two the project runs on. */
    record SyscallNumbers(long setMempolicy, long getMempolicy, long mbind)
    {
        static SyscallNumbers forArch(String arch)
        {
            return switch (arch.toLowerCase(Locale.ROOT)) {
                case "amd64", "x86_64" -> new SyscallNumbers(238, 239, 237);
                case "aarch64", "arm64" -> new SyscallNumbers(237, 236, 235);
                // Unknown architecture: syscall(-1) fails with ENOSYS, never runs a wrong syscall.
                default -> new SyscallNumbers(-1, -1, -1);
            };
        }
    }
}
