package io.chiplet.spark.topology;

import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.Topology;

/** Reads the executor's machine: {@link DiscoveredTopologySource} in Spark, fixed topologies in tests. */
@FunctionalInterface
public interface TopologySource
{
    /** @throws RuntimeException when the machine (or the snapshot) cannot be read; the plugin then fails open */
    Topology read(PlacementSettings settings);
}
