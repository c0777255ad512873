package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import static java.util.Objects.requireNonNull;

/**
 * What a host offers workers, counted as the planner counts it: the chiplets holding a CPU this process may use, the
 * allowed physical cores on them, the allowed CPUs, and the allowed cores of the smallest such chiplet. The figures the
 * advice sizes workers by.
 */
public record UsableCapacity(int chiplets, int physicalCores, int cpus, int smallestChipletCores)
{
    public UsableCapacity
    {
        if (chiplets < 0 || physicalCores < 0 || cpus < 0 || smallestChipletCores < 0) {
            throw new IllegalArgumentException("counts must not be negative: " + chiplets + ", " + physicalCores + ", " + cpus + ", " + smallestChipletCores);
        }
    }

    /** @throws IllegalArgumentException when none of {@code allowed} is online in a chiplet */
    public static UsableCapacity of(Topology topology, CpuSet allowed)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(allowed, "allowed is null");
        UsableTopology usable = UsableTopology.of(topology, allowed);
        int smallest = usable.localOrder().stream().mapToInt(chiplet -> chiplet.cores().length).min().orElse(1);
        return new UsableCapacity(usable.localOrder().size(), usable.physicalCores(), usable.usable().size(), smallest);
    }
}
