package io.chiplet.spark.placement;

import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.topology.Topology;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * What a {@link TaskPlacement} is made from: one executor's settings, machine, task slots and line to the driver.
 *
 * @param taskSlots tasks the executor runs at once ({@code spark.executor.cores / spark.task.cpus}, or local[N])
 * @param driverHints asks the driver for its latest spread hints; may throw when the driver cannot be reached
 * @param leaseCoordinator the driver's check of host-wide leases (executor mode leases its chiplet through it)
 */
public record PlacementContext(
        PlacementSettings settings,
        Topology topology,
        PlacementMetrics metrics,
        int taskSlots,
        String executorId,
        Supplier<SpreadHints> driverHints,
        LeaseCoordinator leaseCoordinator)
{
    public PlacementContext
    {
        requireNonNull(settings, "settings is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(driverHints, "driverHints is null");
        requireNonNull(leaseCoordinator, "leaseCoordinator is null");
        if (taskSlots < 1) {
            throw new IllegalArgumentException("taskSlots must be at least 1: " + taskSlots);
        }
    }
}
