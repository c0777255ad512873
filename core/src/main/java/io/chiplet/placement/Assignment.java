package io.chiplet.placement;

import io.chiplet.topology.CpuSet;

import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Where one worker runs.
 *
 * @param chiplet the chiplet holding all of {@code cpus}; empty when they span several ({@code wim}, usually {@code win})
 * @param cpus the CPUs to pin the worker to; never empty, always allowed and online
 * @param numaNode the node to take the worker's memory from
 */
public record Assignment(int worker, OptionalInt chiplet, CpuSet cpus, int numaNode)
{
    public Assignment
    {
        requireNonNull(chiplet, "chiplet is null");
        requireNonNull(cpus, "cpus is null");
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("worker " + worker + " has no CPUs");
        }
    }
}
