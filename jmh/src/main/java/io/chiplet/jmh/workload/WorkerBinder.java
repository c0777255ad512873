package io.chiplet.jmh.workload;

import io.chiplet.placement.WorkerPlacement;

/**
 * Binds the calling thread (a benchmark's worker) to its finished {@link WorkerPlacement}: the CPUs to bind and the
 * memory node to bind, each where the target has one ({@code wim}: neither, the thread is left as it is). The seam
 * between the workload harness and core's binding API ({@link BenchWiring#binder()} binds through
 * {@code ThreadBinder}), so the kernels run unbound and tests never touch the real mask or memory policy.
 */
@FunctionalInterface
public interface WorkerBinder
{
    /** Leaves the thread where the scheduler puts it. */
    WorkerBinder UNBOUND = target -> {};

    void bind(WorkerPlacement target);
}
