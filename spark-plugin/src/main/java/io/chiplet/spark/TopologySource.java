package io.chiplet.spark;

import io.chiplet.topology.Topology;

/**
 * Reads the executor's machine. The seam for {@code TopologyDiscovery.discover(DiscoveryOptions)} (fsRoot,
 * virtualChipletCores); until that is merged, {@link ProcessorCountTopologySource}.
 */
@FunctionalInterface
public interface TopologySource
{
    /** @throws RuntimeException when the machine (or the snapshot) cannot be read; the plugin then fails open */
    Topology read(ChipletSettings settings);
}
