package io.chiplet.jmh.workload;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.List;

/**
 * Maps a placement policy name ({@code wim}, {@code win}, {@code wicp-local}, ...) to the CPUs each of the workload's
 * workers may run on. The seam between the benchmarks and the placement planner.
 */
@FunctionalInterface
public interface PlacementSource
{
    /**
     * @return one CPU set per worker, {@code workers} entries
     * @throws IllegalArgumentException naming the policy when it is not known
     */
    List<CpuSet> place(Topology topology, String policy, int workers);
}
