package io.chiplet.it;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.PartitionSizing;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;

import java.util.Optional;
import java.util.OptionalLong;

/** Core's partition rule for this machine: what the plugin's driver applies when a local executor reports it. */
final class CoreSizing
{
    private CoreSizing() {}

    static PartitionSizing live()
    {
        Topology topology = TopologyDiscovery.discover(new DiscoveryOptions(Optional.empty(), Optional.empty(), 0));
        return PartitionSizing.of(PartitionBasis.of(topology, topology.allowed()), OptionalLong.empty());
    }
}
