package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;

import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * A NUMA memory policy: a mode and the nodes it names. Applies to the calling thread ({@code set_mempolicy}:
 * every page it faults in from then on) or to one range of memory ({@code mbind}), and reads either back
 * ({@code get_mempolicy}).
 *
 * <p>Needs a kernel built with {@code CONFIG_NUMA} (all distribution kernels); a kernel without it answers
 * {@code ENOSYS}, which surfaces as a {@link NativeCallException} naming the call. No privilege is needed, except
 * {@code CAP_SYS_NICE} to move pages other processes share ({@code MPOL_MF_MOVE_ALL}, not used here).
 */
public record MemoryPolicy(Mode mode, SortedSet<Integer> nodes)
{
    public enum Mode
    {
        DEFAULT(MempolicySyscalls.MPOL_DEFAULT),
        PREFERRED(MempolicySyscalls.MPOL_PREFERRED),
        BIND(MempolicySyscalls.MPOL_BIND),
        INTERLEAVE(MempolicySyscalls.MPOL_INTERLEAVE),
        LOCAL(MempolicySyscalls.MPOL_LOCAL),
        PREFERRED_MANY(MempolicySyscalls.MPOL_PREFERRED_MANY),
        WEIGHTED_INTERLEAVE(MempolicySyscalls.MPOL_WEIGHTED_INTERLEAVE);

        private final int value;

        Mode(int value)
        {
            this.value = value;
        }

        public int value()
        {
            return value;
        }

        static Mode of(int value)
        {
            for (Mode mode : values()) {
                if (mode.value == value) {
                    return mode;
                }
            }
            throw new IllegalStateException("the kernel reported an unknown memory policy mode " + value);
        }
    }

    /** In words, as numactl's {@code --show} would say it: "default (the kernel's: the node of the CPU that allocates)", "preferred node 1", "bound to nodes 0-1". */
    public String describe()
    {
        String list = CpuSet.of(nodes.stream().mapToInt(Integer::intValue).toArray()).toList();
        String on = (nodes.size() == 1 ? "node " : "nodes ") + list;
        return switch (mode) {
            case DEFAULT -> "default (the kernel's: the node of the CPU that allocates)";
            case LOCAL -> "local (the node of the CPU that allocates)";
            case PREFERRED -> "preferred " + on;
            case PREFERRED_MANY -> "preferred " + on + " (several)";
            case BIND -> "bound to " + on;
            case INTERLEAVE -> "interleaved over " + on;
            case WEIGHTED_INTERLEAVE -> "weighted-interleaved over " + on;
        };
    }

    public MemoryPolicy
    {
        requireNonNull(mode, "mode is null");
        nodes = Collections.unmodifiableSortedSet(new TreeSet<>(requireNonNull(nodes, "nodes is null")));
        boolean needsNodes = mode != Mode.DEFAULT && mode != Mode.LOCAL;
        if (needsNodes == nodes.isEmpty()) {
            throw new IllegalArgumentException("memory policy " + mode + (needsNodes ? " needs at least one NUMA node" : " takes no NUMA nodes but got " + nodes));
        }
        if (mode == Mode.PREFERRED && nodes.size() > 1) {
            throw new IllegalArgumentException("memory policy PREFERRED takes one NUMA node but got " + nodes);
        }
        for (int node : nodes) {
            if (node < 0 || node >= MempolicySyscalls.MAX_NODES) {
                throw new IllegalArgumentException("NUMA node " + node + " is outside 0-" + (MempolicySyscalls.MAX_NODES - 1));
            }
        }
    }

    /** The system default: allocate on the node of the CPU that faults the page in. */
    public static MemoryPolicy systemDefault()
    {
        return new MemoryPolicy(Mode.DEFAULT, new TreeSet<>());
    }

    /** Allocate only on these nodes; fail (or reclaim, or OOM) rather than spill elsewhere. */
    public static MemoryPolicy bind(Collection<Integer> nodes)
    {
        return new MemoryPolicy(Mode.BIND, new TreeSet<>(nodes));
    }

    /** Allocate on this node while it has free memory, elsewhere after. */
    public static MemoryPolicy preferred(int node)
    {
        return new MemoryPolicy(Mode.PREFERRED, new TreeSet<>(List.of(node)));
    }

    /** Spread pages round-robin over these nodes. */
    public static MemoryPolicy interleave(Collection<Integer> nodes)
    {
        return new MemoryPolicy(Mode.INTERLEAVE, new TreeSet<>(nodes));
    }

    /** The calling thread's policy. */
    public static MemoryPolicy ofCurrentThread()
    {
        return fromKernel(MempolicySyscalls.getMempolicy());
    }

    /** The policy of the memory holding the byte at {@code address} ({@code get_mempolicy} with {@code MPOL_F_ADDR}). */
    public static MemoryPolicy ofAddress(long address)
    {
        return fromKernel(MempolicySyscalls.getMempolicy(address));
    }

    /** Sets this policy for the calling thread; threads it creates afterwards inherit it. */
    public void applyToCurrentThread()
    {
        checkAllowed();
        try {
            MempolicySyscalls.setMempolicy(mode.value, nodeMask());
        }
        catch (NativeCallException e) {
            throw explain(e);
        }
    }

    /**
     * Sets this policy for the pages of native memory from {@code address} for {@code byteSize} bytes; the address must
     * be on a page boundary. With {@code movePages}, pages already faulted in elsewhere are migrated
     * ({@code MPOL_MF_MOVE}); without, only pages faulted in later follow the policy.
     */
    public void applyTo(long address, long byteSize, boolean movePages)
    {
        long pageSize = MempolicySyscalls.pageSize();
        if (address == 0 || address % pageSize != 0) {
            throw new IllegalArgumentException("mbind needs a page-aligned segment but 0x" + Long.toHexString(address)
                    + " is not a multiple of the page size " + pageSize);
        }
        if (byteSize < 0) {
            throw new IllegalArgumentException("expected a size of at least 0 bytes but found " + byteSize);
        }
        checkAllowed();
        try {
            MempolicySyscalls.mbind(address, byteSize, mode.value, nodeMask(), movePages ? MempolicySyscalls.MPOL_MF_MOVE : 0);
        }
        catch (NativeCallException e) {
            throw explain(e);
        }
    }

    private void checkAllowed()
    {
        if (nodes.isEmpty()) {
            return;
        }
        SortedSet<Integer> allowed = memsAllowed();
        SortedSet<Integer> refused = new TreeSet<>(nodes);
        refused.removeAll(allowed);
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException((refused.size() == 1 ? "NUMA node " + refused.first() + " is" : "NUMA nodes " + refused + " are")
                    + " not allowed for this process (allowed: " + join(allowed) + ")");
        }
    }

    private RuntimeException explain(NativeCallException e)
    {
        if (e.errno() == Errno.EINVAL) {
            return new IllegalArgumentException("cannot set memory policy " + mode + " " + nodes
                    + ": the kernel refused it (NUMA nodes allowed: " + join(memsAllowed()) + ") [" + e.getMessage() + "]", e);
        }
        return e;
    }

    private static SortedSet<Integer> memsAllowed()
    {
        String list = ThreadId.memsAllowed(SchedSyscalls.gettid())
                .orElseThrow(() -> new IllegalStateException("/proc/self/task has no status for the calling thread"));
        SortedSet<Integer> nodes = new TreeSet<>();
        CpuSet.parseList(list).stream().forEach(nodes::add);
        return nodes;
    }

    private static String join(SortedSet<Integer> nodes)
    {
        BitSet bits = new BitSet();
        nodes.forEach(bits::set);
        return CpuSet.fromBitSet(bits).toList();
    }

    private BitSet nodeMask()
    {
        BitSet mask = new BitSet();
        nodes.forEach(mask::set);
        return mask;
    }

    private static MemoryPolicy fromKernel(KernelMempolicy policy)
    {
        Mode mode = Mode.of(policy.mode());
        SortedSet<Integer> nodes = new TreeSet<>();
        // The kernel reports an empty mask for DEFAULT and LOCAL.
        if (mode != Mode.DEFAULT && mode != Mode.LOCAL) {
            policy.nodes().stream().forEach(nodes::add);
        }
        return new MemoryPolicy(mode, nodes);
    }
}
