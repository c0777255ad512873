package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What to plan.
 *
 * @param workers worker instances (executors, Trino workers, or threads for {@code adaptive}); at least 1
 * @param workingSetBytes the data a worker touches repeatedly, when known; {@code auto} chooses from it
 * @param allowed CPUs the plan may use; CPUs outside it, or offline, are never handed out
 */
public record PlacementRequest(Policy policy, int workers, OptionalLong workingSetBytes, CpuSet allowed)
{
    /** More workers than this is a mistake in the caller, not a plan: it would only multiply sharing. */
    public static final int MAX_WORKERS = 1 << 20;

    public PlacementRequest
    {
        requireNonNull(policy, "policy is null");
        requireNonNull(workingSetBytes, "workingSetBytes is null");
        requireNonNull(allowed, "allowed is null");
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be between 1 and " + MAX_WORKERS + " but was " + workers);
        }
        if (workingSetBytes.isPresent() && workingSetBytes.getAsLong() < 0) {
            throw new IllegalArgumentException("working set must not be negative: " + workingSetBytes.getAsLong());
        }
    }

    /** A request for the CPUs the topology says this process may use. */
    public static PlacementRequest of(Topology topology, Policy policy, int workers)
    {
        return new PlacementRequest(policy, workers, OptionalLong.empty(), topology.allowed());
    }

    public PlacementRequest withWorkingSet(long bytes)
    {
        return new PlacementRequest(policy, workers, OptionalLong.of(bytes), allowed);
    }

    public PlacementRequest withAllowed(CpuSet cpus)
    {
        return new PlacementRequest(policy, workers, workingSetBytes, cpus);
    }
}
