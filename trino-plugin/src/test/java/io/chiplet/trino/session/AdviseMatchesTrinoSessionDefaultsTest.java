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
            Map<String, String> advised = AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml, "--workers-per-host", Integer.toString(workers), "--hosts", "1");
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
            // The workers all report from one host: the whole cluster is known, so advise is told it (--hosts 1).
            Map<String, String> advised = AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml, "--workers-per-host", Integer.toString(workers), "--hosts", "1");
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

    /** What advise prints for each skew hint is what the session defaults set for a query shape with that hint. */
    @ParameterizedTest
    @MethodSource("io.chiplet.cli.AdviseRun#machines")
    void skewHintValuesAreWhatAdvisePrints(String machine)
    {
        String xml = AdviseRun.fixture(machine).toString();
        Topology topology = TopologyDiscovery.discover(new DiscoveryOptions(Optional.empty(), Optional.of(java.nio.file.Path.of(xml)), 0));
        int chiplets = Integer.parseInt(AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml).get("workers per host"));
        for (int workers : new TreeSet<>(List.of(1, chiplets))) {
            Map<String, String> advised = AdviseRun.settings("--engine", "trino", "--hwloc-xml", xml, "--workers-per-host", Integer.toString(workers), "--hosts", "1");
            SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(topology, workers, SessionDefaultsPolicy.PROPERTIES);
            for (io.chiplet.placement.SkewHint hint : List.of(io.chiplet.placement.SkewHint.SPREAD, io.chiplet.placement.SkewHint.CONSOLIDATE)) {
                Map<String, String> applied = policy.systemProperties(Map.of(), java.util.OptionalInt.of(workers), hint);
                String expected = "task_concurrency=%s, min_hash_partition_count=%s, max_hash_partition_count=%s".formatted(
                        applied.get(SessionDefaultsPolicy.TASK_CONCURRENCY), applied.get(SessionDefaultsPolicy.MIN_HASH_PARTITION_COUNT),
                        applied.get(SessionDefaultsPolicy.MAX_HASH_PARTITION_COUNT));
                assertThat(advised.get("skew hint " + hint.configName())).as("%s with %d workers, %s", machine, workers, hint).isEqualTo(expected);
            }
        }
    }
}
