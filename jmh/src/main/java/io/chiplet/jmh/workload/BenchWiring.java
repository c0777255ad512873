package io.chiplet.jmh.workload;

import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.placement.Assignment;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.PlacementRequest;
import io.chiplet.placement.Policy;

/**
 * The two seams every workload benchmark goes through, chosen in one place: the FFM affinity layer pins, the
 * placement planner places.
 */
public final class BenchWiring
{
    private BenchWiring() {}

    public static ThreadPinner pinner()
    {
        ThreadAffinity affinity = ThreadAffinity.live();
        // Workers stay pinned for their whole trial, so the restore handle is not kept.
        return affinity::pinCurrentThread;
    }

    public static PlacementSource placement()
    {
        return (topology, policy, workers) -> PlacementPlanner.plan(topology, PlacementRequest.of(topology, Policy.parse(policy), workers))
                .assignments().stream()
                .map(Assignment::cpus)
                .toList();
    }

    /** Whether worker threads are really pinned, for the report to say so. */
    public static boolean pinsThreads()
    {
        return true;
    }
}
