package io.chiplet.spark;

import io.chiplet.topology.Topology;

/** Makes an executor's {@link TaskPlacement} once its settings and machine are known. */
@FunctionalInterface
public interface TaskPlacementFactory
{
    TaskPlacement create(ChipletSettings settings, Topology topology, PlacementMetrics metrics);
}
