package io.chiplet.topology;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A kind of core on a hybrid part. {@code rank} 0 is the most performant, as hwloc ranks cpukinds (by
 * {@code cpu_capacity}, then maximum frequency). Names are {@code performance}, {@code efficiency}, or for
 * parts with more tiers {@code kind-N}.
 *
 * @param model the core design, where the machine names it and it is known: {@code Cortex-A76} from an ARM MIDR
 */
public record CoreKind(String name, int rank, CpuSet cpus, Optional<String> model)
{
    public static final String PERFORMANCE = "performance";
    public static final String EFFICIENCY = "efficiency";

    public CoreKind
    {
        requireNonNull(name, "name is null");
        requireNonNull(cpus, "cpus is null");
        requireNonNull(model, "model is null");
    }

    /** A kind whose core design nothing names. */
    public CoreKind(String name, int rank, CpuSet cpus)
    {
        this(name, rank, cpus, Optional.empty());
    }
}
