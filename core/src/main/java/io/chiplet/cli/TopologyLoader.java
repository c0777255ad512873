package io.chiplet.cli;

import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyDiscovery;

import java.nio.file.Path;
import java.util.Optional;

/** How a command obtains the machine's topology: the CLI reads the machine or a snapshot; tests hand in fixtures. */
@FunctionalInterface
interface TopologyLoader
{
    /**
     * @throws IllegalArgumentException naming the file or folder when it cannot be read as a topology
     */
    Topology load(Optional<Path> fsRoot, Optional<Path> hwlocXml);

    /** The one place the commands reach topology discovery. */
    static TopologyLoader discovery()
    {
        return (fsRoot, hwlocXml) -> TopologyDiscovery.discover(new DiscoveryOptions(fsRoot, hwlocXml, 0));
    }
}
