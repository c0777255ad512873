package io.chiplet.jmh.workload;

import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.Topology;
import java.util.function.IntToLongFunction;

import static java.util.Objects.requireNonNull;

/**
 * What one JMH trial of a workload benchmark sets up from its parameters: the topology, the workers bound to the
 * targets core's planner finishes for the policy, and the bytes each worker's slice of the working set gets.
 */
public final class WorkloadTrial
        implements AutoCloseable
{
    private final Topology topology;
    private final long totalBytes;
    private final PlacedWorkers workers;

    private WorkloadTrial(Topology topology, long totalBytes, PlacedWorkers workers)
    {
        this.topology = topology;
        this.totalBytes = totalBytes;
        this.workers = workers;
    }

    /**
     * @param workers 0 for the default: as many workers as the smallest chiplet has CPUs, so that one chiplet
     * can hold them all (the OLAP study's WICP_Local against WICP_Mixed)
     */
    public static WorkloadTrial start(String policy, String workingSet, int workers)
    {
        requireNonNull(policy, "policy is null");
        Topology topology = BenchTopology.detect();
        long bytes = WorkingSets.of(topology).bytes(SizeClass.fromLabel(workingSet));
        int count = workers > 0 ? workers : defaultWorkers(topology);
        WorkerPlacements targets = BenchWiring.placement().place(topology, policy, count);
        return new WorkloadTrial(topology, bytes, new PlacedWorkers(targets.targets(), BenchWiring.binder()));
    }

    public static int defaultWorkers(Topology topology)
    {
        PlacementDomain share = PlacementDomain.of(topology);
        int smallest = share.smallestChipletCpus();
        return smallest > 0 ? smallest : Math.max(1, share.shareCpus().size());
    }

    public Topology topology()
    {
        return topology;
    }

    public int workers()
    {
        return workers.workers();
    }

    /** The working set over all workers, in bytes. */
    public long totalBytes()
    {
        return totalBytes;
    }

    /** How many elements of {@code bytesPerElement} one worker's slice holds, at least one. */
    public int elementsPerWorker(long bytesPerElement)
    {
        long elements = totalBytes / workers.workers() / bytesPerElement;
        if (elements > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a worker slice of " + elements + " elements does not fit one Java array; use more workers");
        }
        return (int) Math.max(1, elements);
    }

    public long run(IntToLongFunction kernel)
    {
        return workers.run(kernel);
    }

    @Override
    public void close()
    {
        workers.close();
    }
}
