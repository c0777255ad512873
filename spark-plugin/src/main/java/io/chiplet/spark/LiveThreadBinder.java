package io.chiplet.spark;

import io.chiplet.affinity.MempolicySyscalls;
import io.chiplet.affinity.PinnedThread;
import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.topology.CpuSet;

import java.util.BitSet;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Pins through {@link ThreadAffinity} (whichever backend it was built with) and sets the memory policy with
 * {@code set_mempolicy}. Per call: {@code gettid}, {@code sched_getaffinity}, {@code sched_setaffinity}, and with a
 * node {@code get_mempolicy} and {@code set_mempolicy}; restoring is one or two calls more. The node is checked
 * against the process's allowed nodes once, when the plan is made, not here.
 *
 * <p>The policy is {@code MPOL_PREFERRED}, not {@code MPOL_BIND}: the executor's heap is shared by all its tasks, and a
 * task thread whose node runs out of memory must spill to another node rather than push the JVM into the OOM killer.
 * Mode flags of the previous policy ({@code MPOL_F_STATIC_NODES} and the like) are not restored: the kernel does not
 * report them back, and executor threads do not use them.
 */
final class LiveThreadBinder
        implements ThreadBinder
{
    private final ThreadAffinity affinity;
    // One node mask per node id, made once: set_mempolicy reads the mask, never keeps it.
    private final BitSet[] nodeMasks;

    LiveThreadBinder(ThreadAffinity affinity, int maxNode)
    {
        this.affinity = requireNonNull(affinity, "affinity is null");
        this.nodeMasks = new BitSet[maxNode + 1];
        for (int node = 0; node <= maxNode; node++) {
            BitSet mask = new BitSet();
            mask.set(node);
            nodeMasks[node] = mask;
        }
    }

    @Override
    public Binding bind(CpuSet cpus, OptionalInt memoryNode)
    {
        PinnedThread pinned = affinity.pinCurrentThread(cpus);
        if (memoryNode.isEmpty()) {
            return new Pinned(pinned, null);
        }
        try {
            MempolicySyscalls.Policy previous = MempolicySyscalls.getMempolicy();
            MempolicySyscalls.setMempolicy(MempolicySyscalls.MPOL_PREFERRED, nodeMasks[memoryNode.getAsInt()]);
            return new Pinned(pinned, previous);
        }
        catch (RuntimeException e) {
            pinned.close();
            throw e;
        }
    }

    private record Pinned(PinnedThread pinned, MempolicySyscalls.Policy previousMemory)
            implements Binding
    {
        @Override
        public int tid()
        {
            return pinned.tid();
        }

        @Override
        public void restore()
        {
            try {
                if (previousMemory != null) {
                    MempolicySyscalls.setMempolicy(previousMemory.mode(), previousMemory.nodes());
                }
            }
            finally {
                pinned.close();
            }
        }
    }
}
