package io.chiplet.jmh.workload;

/**
 * The two seams every workload benchmark goes through, chosen in one place.
 */
public final class BenchWiring
{
    private BenchWiring() {}

    public static ThreadPinner pinner()
    {
        // MERGE: return cpus -> ThreadAffinity.pin(cpus);
        return ThreadPinner.NONE;
    }

    public static PlacementSource placement()
    {
        // MERGE: return a PlacementSource over PlacementPlanner.plan(topology, request), one Assignment.cpus() per worker
        return new RoundRobinPlacement();
    }

    /** Whether worker threads are really pinned, for the report to say so. */
    public static boolean pinsThreads()
    {
        return pinner() != ThreadPinner.NONE;
    }
}
