package io.chiplet.jmh.workload;

import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.Topology;

/**
 * Maps a placement policy name ({@code wim}, {@code win}, {@code wicp-local}, ...) to what each of the workload's
 * workers is bound to: core's finished targets, the same {@code chiplet plan} prints for that machine, policy and
 * worker count. The seam between the benchmarks and the placement planner.
 */
@FunctionalInterface
public interface PlacementSource
{
    /**
     * @return one target per worker, {@code workers} of them
     * @throws IllegalArgumentException naming the policy when it is not known
     */
    WorkerPlacements place(Topology topology, String policy, int workers);
}
