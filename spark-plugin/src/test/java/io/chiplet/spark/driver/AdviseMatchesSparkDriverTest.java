package io.chiplet.spark.driver;

import io.chiplet.cli.AdviseRun;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.UsableChiplets;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.placement.UnplacedTaskPlacement;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import org.apache.spark.SparkConf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code chiplet advise --engine spark} and the driver plugin, key by key: the driver, told of the machine by its
 * executors as they report it, applies exactly the partition settings advise prints for that machine.
 */
class AdviseMatchesSparkDriverTest
{
    @ParameterizedTest
    @MethodSource("io.chiplet.cli.AdviseRun#machines")
    void driverAppliesWhatAdvisePrints(String machine)
    {
        Path xml = AdviseRun.fixture(machine);
        Topology topology = TopologyDiscovery.discover(new DiscoveryOptions(Optional.empty(), Optional.of(xml), 0));
        Map<String, String> advised = new TreeMap<>(AdviseRun.settings("--engine", "spark", "--hwloc-xml", xml.toString()));
        advised.keySet().retainAll(SparkPartitionSettings.KEYS);
        assertThat(advised).containsOnlyKeys(SparkPartitionSettings.KEYS);

        // Task mode: one executor owning the host reports what a task-mode placement counts.
        PartitionBasis host = new UnplacedTaskPlacement().summary(topology);
        assertThat(applied(List.of(new TopologyReport("1", "host-1", PlacementMode.TASK, host, false)))).as(machine + ", task mode").isEqualTo(advised);

        // Executor mode, as advise deploys it: one executor per chiplet, each reporting its leased chiplet.
        List<TopologyReport> leases = new ArrayList<>();
        for (Chiplet chiplet : UsableChiplets.of(topology).chiplets()) {
            PartitionBasis lease = PartitionBasis.of(topology, chiplet.cpus().intersect(topology.allowed()));
            leases.add(new TopologyReport(Integer.toString(chiplet.id()), "host-1", PlacementMode.EXECUTOR, lease, true));
        }
        assertThat(applied(leases)).as(machine + ", executor mode").isEqualTo(advised);
    }

    /** The partition settings the driver plugin applies once every report has arrived. */
    private static Map<String, String> applied(List<TopologyReport> reports)
    {
        FakePluginContext context = new FakePluginContext(Map.of(), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        assertThat(driver.init(null, context)).isEmpty();
        reports.forEach(report -> driver.receive(PluginMessages.encode(report)));
        SparkConf conf = context.conf();
        Map<String, String> applied = new TreeMap<>();
        for (String key : SparkPartitionSettings.KEYS) {
            if (conf.contains(key)) {
                applied.put(key, conf.get(key));
            }
        }
        return applied;
    }
}
