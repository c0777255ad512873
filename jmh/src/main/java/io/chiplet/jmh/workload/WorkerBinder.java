package io.chiplet.jmh.workload;

import io.chiplet.topology.CpuSet;

/**
 * Pins the calling thread to a set of CPUs. The seam between the workload harness and core's binding API
 * ({@link BenchWiring#pinner()} binds through {@code ThreadBinder}), so the kernels run unpinned and tests never touch
 * the real affinity mask.
 */
@FunctionalInterface
public interface ThreadPinner
{
    /** Leaves the thread where the scheduler puts it. */
    ThreadPinner NONE = cpus -> {};

    void pin(CpuSet cpus);
}
