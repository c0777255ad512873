package io.chiplet.jmh.workload;

import io.chiplet.topology.CpuSet;

/**
 * Pins the calling thread to a set of CPUs. The seam between the workload harness and the affinity layer, so the
 * kernels run (unpinned) before that layer exists and tests never touch the real affinity mask.
 */
@FunctionalInterface
public interface ThreadPinner
{
    /** Leaves the thread where the scheduler puts it. */
    ThreadPinner NONE = cpus -> {};

    void pin(CpuSet cpus);
}
