package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/** A die inside a package ({@code topology/die_id}); on most machines one per package. */
public record Die(int packageId, int id, CpuSet cpus)
{
    public Die
    {
        requireNonNull(cpus, "cpus is null");
    }
}
