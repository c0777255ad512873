package io.chiplet.spark.placement;

import io.chiplet.topology.CpuSet;

import java.util.Map;
import java.util.OptionalInt;

/**
 * Binds the calling thread to CPUs, and optionally its memory to a NUMA node, and undoes it exactly. The live one
 * ({@link LiveThreadBinder}) calls the kernel; tests record.
 */
interface ThreadBinder
{
    /**
     * Checks, once per plan rather than per task, that {@code cpus} may be bound to.
     *
     * @throws IllegalArgumentException naming the CPUs this process may not use
     */
    default void check(CpuSet cpus) {}

    /**
     * @param memoryNode the node the thread's new pages should come from; empty leaves its memory policy alone
     * @return what restores the thread's previous mask and memory policy, on the same thread
     */
    Binding bind(CpuSet cpus, OptionalInt memoryNode);

    /**
     * The process's allowed CPUs changed: pins thread {@code tid} (a running task's, not the caller) to {@code cpus},
     * and from now on gives threads back their own mask only within {@code nowAllowed}. A binder that calls no
     * kernel has nothing to do.
     */
    default void follow(CpuSet nowAllowed, Map<Integer, CpuSet> runningThreads) {}

    interface Binding
    {
        /** The bound thread's Linux thread id: the adaptive controller watches its counters. */
        int tid();

        /** Gives the thread back the mask and memory policy it had before {@link #bind}; call on the bound thread. */
        void restore();
    }
}
