package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/** A physical package (socket) and its online CPUs. */
public record CpuPackage(int id, CpuSet cpus)
{
    public CpuPackage
    {
        requireNonNull(cpus, "cpus is null");
    }
}
