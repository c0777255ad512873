package io.chiplet.trino.placement;

import io.chiplet.topology.CpuSet;

import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Where one query thread is to run.
 *
 * @param chiplet the chiplet holding all of {@code cpus}; empty when they span several (a NUMA node under
 *         {@code win})
 * @param cpus the thread's affinity mask; never empty, only CPUs the process may use
 * @param memoryNode the node core puts the thread's memory on ({@code WorkerPlacement.memoryNodeToBind()}); empty when
 *         memory is not bound. Not applied by the binder: a thread's memory policy can only be set by the thread itself
 *         ({@link ThreadPlacement}, "Memory")
 */
public record ThreadAssignment(int tid, OptionalInt chiplet, CpuSet cpus, OptionalInt memoryNode)
{
    public ThreadAssignment
    {
        requireNonNull(chiplet, "chiplet is null");
        requireNonNull(cpus, "cpus is null");
        requireNonNull(memoryNode, "memoryNode is null");
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("thread " + tid + " has no CPUs");
        }
    }
}
