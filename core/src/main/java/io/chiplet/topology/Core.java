package io.chiplet.topology;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A physical core: its package, its {@code core_id} within the package, its online SMT siblings, and its kind
 * on hybrid parts (empty when all cores are alike).
 */
public record Core(int packageId, int coreId, CpuSet cpus, Optional<String> kind)
{
    public Core
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(kind, "kind is null");
    }

    public int firstCpu()
    {
        return cpus.first();
    }
}
