package io.chiplet.jmh.workload;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The topology the benchmarks place their workers on: the live machine, or the hwloc XML named by the system
 * property {@value #HWLOC_XML_PROPERTY} (which {@code BenchSuite --hwloc-xml} hands to JMH's forked JVMs). The
 * XML must describe this machine; workers are bound to its CPU numbers.
 */
public final class BenchTopology
{
    public static final String HWLOC_XML_PROPERTY = "chiplet.bench.hwlocXml";

    private BenchTopology() {}

    public static Topology detect()
    {
        return TopologyDiscovery.discover(options());
    }

    public static DiscoveryOptions options()
    {
        return Optional.ofNullable(System.getProperty(HWLOC_XML_PROPERTY))
                .map(Path::of)
                .map(DiscoveryOptions::hwlocXml)
                .orElseGet(DiscoveryOptions::live);
    }
}
