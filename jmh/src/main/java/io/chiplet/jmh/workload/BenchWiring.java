package io.chiplet.jmh.workload;

import io.chiplet.affinity.ThreadBinder;
import io.chiplet.placement.Assignment;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.PlacementRequest;
import io.chiplet.placement.Policy;

import java.util.Optional;

/**
 * The two seams every workload benchmark goes through, chosen in one place: core's binding API
 * ({@link ThreadBinder}, the plugins' own) binds, the placement planner places.
 */
public final class BenchWiring
{
    private BenchWiring() {}

    public static ThreadPinner pinner()
    {
        ThreadBinder binder = ThreadBinder.live();
        // Workers stay bound for their whole trial, so the binding is not restored; a thread bound again moves.
        return cpus -> {
            ThreadBinder.Target target = binder.target(cpus, Optional.empty());
            ThreadBinder.BoundThread thread = binder.currentThread();
            if (thread.isBound()) {
                thread.rebind(target);
            }
            else {
                thread.bind(target);
            }
        };
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
