package io.chiplet.slots;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.binding.MemoryEnforcement;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.topology.CpuSet;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Binds a worker thread (a Spark task thread, any engine's thread that runs one unit of work at a time) to its slot's
 * CPUs, and optionally its memory to the slot's NUMA node, and undoes it exactly. The live one ({@link LiveSlotBinder})
 * is core's {@link ThreadBinder}; tests record.
 */
public interface SlotBinder
{
    /**
     * A slot's CPUs and memory node, checked and in the form {@link #bind} takes: made once per plan, not per task.
     * The memory policy is {@code MPOL_PREFERRED}, not {@code MPOL_BIND}: the process's heap is shared by all its
     * workers, and a worker thread whose node runs out of memory must spill to another node rather than push the JVM into
     * the OOM killer.
     *
     * @param memoryNode the node the thread's new pages should come from; empty leaves its memory policy alone
     * @throws IllegalArgumentException naming the CPUs this process may not use
     */
    PreparedAffinity prepare(CpuSet cpus, OptionalInt memoryNode);

    /** @return what restores the thread's previous mask and memory policy, on the same thread */
    Binding bind(PreparedAffinity target);

    /**
     * The process's allowed CPUs changed: later targets are checked against {@code nowAllowed}, and threads get their
     * own mask back only within it. A binder that calls no kernel has nothing to do.
     */
    default void follow(CpuSet nowAllowed) {}

    /** Moves thread {@code tid} (a running worker's, not the caller) to {@code target}'s CPUs; nothing where it has ended. */
    default void move(int tid, PreparedAffinity target) {}

    /** The memory policy of a slot on {@code memoryNode}. */
    static Optional<MemoryPolicy> preferred(OptionalInt memoryNode)
    {
        // Core's plugin enforcement: MPOL_PREFERRED, never MPOL_BIND (a worker must spill, not OOM the process).
        return MemoryEnforcement.PREFERRED.policyFor(memoryNode);
    }

    interface Binding
    {
        /** The bound thread's Linux thread id: the adaptive loop watches its counters. */
        int tid();

        /** Gives the thread back the mask and memory policy it had before {@link #bind}; call on the bound thread. */
        void restore();
    }
}
