package io.chiplet.topology;

/**
 * PLACEHOLDER written on the {@code cli} branch so that {@code TopologyCommand} compiles; the discovery branch
 * owns the real class. Drop this file at merge.
 */
public final class TopologyDiscovery
{
    private TopologyDiscovery() {}

    public static Topology discover(DiscoveryOptions options)
    {
        throw new TopologyException("topology discovery is not part of this build yet");
    }
}
