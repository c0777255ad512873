package io.chiplet.trino.session;

import io.chiplet.cli.AdviseRun;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.trino.cluster.WorkerReport;
import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.resourcegroups.ResourceGroupId;
import io.trino.spi.resourcegroups.SessionPropertyConfigurationManagerContext;
import io.trino.spi.session.SessionConfigurationContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code chiplet advise --engine trino} and the coordinator's session defaults, key by key: the session property
 * manager, created as Trino creates it for a one-host cluster, sets exactly what advise prints on the same machine.
 */
class AdviseMatchesTrinoSessionDefaultsTest
{
    @ParameterizedTest
    @MethodSource("io.chiplet.cli.AdviseRun#machines")
    void sessionDefaultsAreWhatAdvisePrints(String machine)
    {
        String xml = AdviseRun.fixture(machine).toString();
        int chiplets = Integer.parseInt(AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml).get("workers per host"));
        for (int workers : new TreeSet<>(List.of(1, chiplets))) {
            Map<String, String> advised = AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml, "--workers-per-host", Integer.toString(workers));
            var manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new WorkerReports()).create(Map.of(
                    SessionManagerSettings.HWLOC_XML, xml,
                    SessionManagerSettings.WORKERS_PER_HOST, Integer.toString(workers),
                    SessionManagerSettings.WORKERS, Integer.toString(workers)), new SessionPropertyConfigurationManagerContext() {});
            Map<String, String> applied = manager.getSystemSessionProperties(
                    new SessionConfigurationContext("alice", Optional.of("cli"), Set.of(), Optional.of("SELECT"), new ResourceGroupId("global")));

            assertThat(new TreeMap<>(applied)).as("%s with %d workers", machine, workers).isEqualTo(advised.entrySet().stream()
                    .filter(setting -> SessionDefaultsPolicy.PROPERTIES.contains(setting.getKey()))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new)));
            assertThat(applied).containsOnlyKeys(SessionDefaultsPolicy.PROPERTIES);
        }
    }

    /** The same through the workers' own reports: each worker of one host reports core's partition basis of the machine. */
    @ParameterizedTest
    @MethodSource("io.chiplet.cli.AdviseRun#machines")
    void sessionDefaultsFromWorkerReportsAreWhatAdvisePrints(String machine, @org.junit.jupiter.api.io.TempDir java.nio.file.Path state)
    {
        String xml = AdviseRun.fixture(machine).toString();
        Topology topology = TopologyDiscovery.discover(new DiscoveryOptions(Optional.empty(), Optional.of(java.nio.file.Path.of(xml)), 0));
        PartitionBasis basis = PartitionBasis.of(topology, topology.allowed());
        int chiplets = Integer.parseInt(AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml).get("workers per host"));
        for (int workers : new TreeSet<>(List.of(1, 2, chiplets))) {
            Map<String, String> advised = AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml, "--workers-per-host", Integer.toString(workers));
            WorkerReports reports = new WorkerReports();
            var manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), reports)
                    .create(Map.of(SessionManagerSettings.STATE_DIR, state.toString()), new SessionPropertyConfigurationManagerContext() {});
            List<WorkerReport> sameHost = new java.util.ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                sameHost.add(new WorkerReport("worker-" + worker, "host-1", basis.chiplets(), basis.cores()));
            }
            reports.update(sameHost, java.time.Instant.parse("2026-11-26T12:00:00Z"));
            Map<String, String> applied = manager.getSystemSessionProperties(
                    new SessionConfigurationContext("alice", Optional.of("cli"), Set.of(), Optional.of("SELECT"), new ResourceGroupId("global")));

            assertThat(new TreeMap<>(applied)).as("%s with %d workers reporting", machine, workers).isEqualTo(advised.entrySet().stream()
                    .filter(setting -> SessionDefaultsPolicy.PROPERTIES.contains(setting.getKey()))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new)));
        }
    }
}
