package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/**
 * A kind of core on a hybrid part. {@code rank} 0 is the most performant, as hwloc ranks cpukinds (by
 * {@code cpu_capacity}, then maximum frequency). Names are {@code performance}, {@code efficiency}, or for
 * parts with more tiers {@code kind-N}.
 */
public record CoreKind(String name, int rank, CpuSet cpus)
{
    public static final String PERFORMANCE = "performance";
    public static final String EFFICIENCY = "efficiency";

    public CoreKind
    {
        requireNonNull(name, "name is null");
        requireNonNull(cpus, "cpus is null");
    }
}
