package io.chiplet.affinity;

import io.chiplet.nativeio.NativeAccess;

import java.util.BitSet;

/**
 * The NUMA memory-policy syscall family: {@code set_mempolicy}, {@code get_mempolicy} and {@code mbind}. glibc does
 * not wrap them (libnuma does, and we do not want that dependency), so they go through {@code syscall(2)} with the
 * number of the running architecture, through this JVM's native path ({@link NativeAccess}).
 *
 * <p>Node masks are {@code unsigned long} bit arrays of {@link #MAX_NODES} bits. The kernel reads
 * {@code maxnode - 1} bits (a historical off-by-one every caller must repeat), hence {@code MAX_NODES + 1}.
 */
final class MempolicySyscalls
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

    private static final MempolicyCalls CALLS = MempolicyCalls.forPath(NativeAccess.path());

    private MempolicySyscalls() {}

    /** {@code set_mempolicy(mode, nodes)} for the calling thread. */
    public static void setMempolicy(int mode, BitSet nodes)
    {
        checkNodes(nodes);
        CALLS.setMempolicy(mode, nodes);
    }

    /** {@code set_mempolicy(mode, ...)} from the first {@code count} words of a node mask; nothing allocated. */
    public static void setMempolicy(int mode, long[] nodeWords, int count)
    {
        CALLS.setMempolicy(mode, nodeWords, count);
    }

    /** The calling thread's policy: nodes into {@code nodeWords} ({@link #MAX_NODES} bits), mode and flags returned. */
    public static int getMempolicy(long[] nodeWords)
    {
        return CALLS.getMempolicy(nodeWords);
    }

    /** {@code get_mempolicy(&mode, mask, MAX_NODES + 1, NULL, 0)}: the calling thread's policy. */
    public static KernelMempolicy getMempolicy()
    {
        return CALLS.getMempolicy();
    }

    /** {@code get_mempolicy(&mode, mask, MAX_NODES + 1, address, MPOL_F_ADDR)}: the policy of the range holding address. */
    public static KernelMempolicy getMempolicy(long address)
    {
        return CALLS.getMempolicy(address);
    }

    /**
     * {@code mbind(address, length, mode, nodes, flags)}. The address must be on a page boundary; the kernel rounds
     * the length up to whole pages.
     */
    public static void mbind(long address, long length, int mode, BitSet nodes, int flags)
    {
        checkNodes(nodes);
        CALLS.mbind(address, length, mode, nodes, flags);
    }

    /** The size of a page, which {@link #mbind} addresses must be a multiple of. */
    public static long pageSize()
    {
        return CALLS.pageSize();
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

    private static void checkNodes(BitSet nodes)
    {
        if (nodes.length() > MAX_NODES) {
            throw new IllegalArgumentException("NUMA node " + (nodes.length() - 1) + " exceeds the maximum of " + (MAX_NODES - 1));
        }
    }

    static void checkNodeWords(long[] nodeWords)
    {
        if (nodeWords.length < MAX_NODES / 64) {
            throw new IllegalArgumentException("a node mask of " + nodeWords.length + " words is shorter than the " + MAX_NODES / 64 + " get_mempolicy fills");
        }
    }

    /** The {@code maxnode} argument for a mask of {@code nodes}: the kernel reads maxnode - 1 bits, so whole words plus one. */
    static long maxnode(long[] words)
    {
        return words.length == 0 ? 0 : (long) words.length * 64 + 1;
    }
}
