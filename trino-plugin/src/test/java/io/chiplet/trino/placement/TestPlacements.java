package io.chiplet.trino.placement;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.Policy;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

/** Thread placements for tests: core's share of {@code allowed}, memory not bound. */
final class TestPlacements
{
    private TestPlacements() {}

    static ThreadPlacement of(Topology topology, Policy policy, CpuSet allowed)
    {
        return new ThreadPlacement(PlacementDomain.of(topology, allowed), policy, MemoryBinding.off(topology));
    }
}
