package io.chiplet.trino.session;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.SkewEvidence;
import io.chiplet.placement.SkewHint;
import io.chiplet.trino.cluster.WorkerReport;
import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.LogCapture;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewHistory;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.spi.resourcegroups.ResourceGroupId;
import io.trino.spi.resourcegroups.SessionPropertyConfigurationManagerContext;
import io.trino.spi.session.SessionConfigurationContext;
import io.trino.spi.session.SessionPropertyConfigurationManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletSessionPropertyManagerFactoryTest
{
    private static final SessionPropertyConfigurationManagerContext CONTEXT = new SessionPropertyConfigurationManagerContext() {};

    @TempDir
    Path directory;

    @Test
    void rulesFirstThenFittedDefaults()
            throws Exception
    {
        Map<String, String> config = config(Map.of(SessionManagerSettings.WORKERS, "3"));
        try (LogCapture recorded = LogCapture.of(ChipletSessionPropertyManagerFactory.class)) {
            SessionPropertyConfigurationManager manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new WorkerReports()).create(config, CONTEXT);

            // The hybrid laptop has 14 physical cores: task_concurrency 8.
            assertThat(manager.getSystemSessionProperties(query("alice", "cli"))).isEqualTo(Map.of(
                    "task_concurrency", "8", "min_hash_partition_count", "3", "max_hash_partition_count", "102"));
            assertThat(manager.getSystemSessionProperties(query("etl_bob", "cli"))).isEqualTo(Map.of(
                    "task_concurrency", "2", "query_max_execution_time", "1h", "min_hash_partition_count", "3", "max_hash_partition_count", "102"));
            assertThat(manager.getCatalogSessionProperties(query("etl_bob", "cli"))).isEqualTo(Map.of("tpch", Map.of("splits_per_node", "1")));
            assertThat(recorded.warnings()).isEmpty();
        }
    }

    @Test
    void everyCallTrinoMakesIsTimedOnTheThreadsCpuClockForThePluginsCost()
            throws Exception
    {
        Map<String, String> config = config(Map.of(SessionManagerSettings.WORKERS, "3"));
        List<Long> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        SessionPropertyConfigurationManager manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new SkewEvidenceLog(16), new WorkerReports(),
                Clock.systemUTC(), new CoordinatorParts(), calls::add).create(config, CONTEXT);
        long threadBefore = ChipletSessionPropertyManager.threadCpuNanos();
        manager.getSystemSessionProperties(query("alice", "cli"));
        manager.getCatalogSessionProperties(query("etl_bob", "cli"));
        long threadSpent = ChipletSessionPropertyManager.threadCpuNanos() - threadBefore;
        assertThat(calls).hasSize(2).allSatisfy(cpu -> assertThat(cpu).isNotNegative());
        // CPU time of this thread, so no more than the thread spent over both calls (wall time would include waiting).
        assertThat(calls.stream().mapToLong(Long::longValue).sum()).isLessThanOrEqualTo(threadSpent);
    }

    @Test
    void skewEvidenceOfAUsersSourceFeedsItsNextQueriesAndTheHistoryTheWorkerCount()
            throws Exception
    {
        SkewHistory history = new SkewHistory(16);
        SkewEvidenceLog evidence = new SkewEvidenceLog(64);
        Instant now = Instant.parse("2026-11-26T12:00:00Z");
        SessionPropertyConfigurationManager manager = new ChipletSessionPropertyManagerFactory(history, evidence, new WorkerReports(), Clock.fixed(now, ZoneOffset.UTC))
                .create(config(Map.of()), CONTEXT);
        assertThat(manager.getSystemSessionProperties(query("alice", "dashboards"))).isEqualTo(Map.of("task_concurrency", "8"));

        history.record(List.of(
                new CompletedStageSkew("q1", "dashboards", 1, 3, 60_000, 18.0, 2.7, 0.57, "spread"),
                new CompletedStageSkew("q1", "dashboards", 2, 3, 60_000, 1.0, 1.0, 0.0, "none")));
        SkewEvidenceLog.SessionKey alice = new SkewEvidenceLog.SessionKey("alice", "dashboards");
        evidence.record(alice, "shape-a", new SkewEvidence.Observation(now.minusSeconds(120), SkewHint.SPREAD));
        // One query of the shape is not enough.
        assertThat(manager.getSystemSessionProperties(query("alice", "dashboards"))).containsEntry("task_concurrency", "8");
        evidence.record(alice, "shape-a", new SkewEvidence.Observation(now.minusSeconds(60), SkewHint.NONE));

        assertThat(manager.getSystemSessionProperties(query("alice", "dashboards"))).isEqualTo(Map.of(
                "task_concurrency", "16", "min_hash_partition_count", "3", "max_hash_partition_count", "204"));
        // Not another source of hers, nor another user of the same client.
        assertThat(manager.getSystemSessionProperties(query("alice", "reports"))).isEqualTo(Map.of(
                "task_concurrency", "8", "min_hash_partition_count", "3", "max_hash_partition_count", "102"));
        assertThat(manager.getSystemSessionProperties(query("carol", "dashboards"))).containsEntry("task_concurrency", "8");
    }

    @Test
    void badSettingLeavesTheRulesWithOneWarning()
            throws Exception
    {
        Map<String, String> config = config(Map.of(SessionManagerSettings.WORKERS, "three"));
        try (LogCapture recorded = LogCapture.of(ChipletSessionPropertyManagerFactory.class)) {
            SessionPropertyConfigurationManager manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new WorkerReports()).create(config, CONTEXT);

            assertThat(manager.getSystemSessionProperties(query("alice", "cli"))).isEmpty();
            assertThat(manager.getSystemSessionProperties(query("etl_bob", "cli"))).isEqualTo(Map.of("task_concurrency", "2", "query_max_execution_time", "1h"));
            assertThat(recorded.warnings()).singleElement().asString()
                    .contains("chiplet.workers = 'three' is not usable: expected a whole number of nodes that run tasks, at least 1")
                    .contains("the chiplet defaults are not applied");
        }
    }

    @Test
    void unknownSettingAndMissingTopologyAreNamed()
            throws Exception
    {
        try (LogCapture recorded = LogCapture.of(ChipletSessionPropertyManagerFactory.class)) {
            new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new WorkerReports()).create(config(Map.of("chiplet.worker", "3")), CONTEXT);
            Map<String, String> missing = config(Map.of());
            missing.put(SessionManagerSettings.HWLOC_XML, directory.resolve("absent.xml").toString());
            new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new WorkerReports()).create(missing, CONTEXT);

            assertThat(recorded.warnings()).hasSize(2);
            assertThat(recorded.warnings().get(0)).contains("chiplet.worker is not a setting of the chiplet session property manager");
            assertThat(recorded.warnings().get(1)).contains("absent.xml");
        }
    }

    @Test
    void unreadableRulesLeaveOurDefaultsWithOneWarning()
            throws Exception
    {
        Map<String, String> config = config(Map.of());
        Files.writeString(Path.of(config.get(SessionManagerSettings.RULES_FILE)), "[{\"users\": \"bob\"}]");
        try (LogCapture recorded = LogCapture.of(ChipletSessionPropertyManagerFactory.class)) {
            SessionPropertyConfigurationManager manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new WorkerReports()).create(config, CONTEXT);

            assertThat(manager.getSystemSessionProperties(query("etl_bob", "cli"))).isEqualTo(Map.of("task_concurrency", "8"));
            assertThat(recorded.warnings()).singleElement().asString()
                    .contains("the operator's rules are not applied")
                    .contains("rules.json:1:3: expected one of the fields");
        }
    }

    @Test
    void linkageErrorComputingTheDefaultsCostsOnlyTheDefaults()
            throws Exception
    {
        Map<String, String> config = config(Map.of(SessionManagerSettings.WORKERS, "3"));
        SessionManagerSettings settings = SessionManagerSettings.parse(config);
        SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(TopologyDiscovery.discover(settings.topology()), settings.workersPerHost(), settings.defaults());
        SessionRules rules = SessionRulesParser.parse(Files.readString(Path.of(config.get(SessionManagerSettings.RULES_FILE))), "rules.json");
        try (LogCapture recorded = LogCapture.of(ChipletSessionPropertyManagerFactory.class)) {
            FailOpenSwitch failOpen = new FailOpenSwitch(LoggerFactory.getLogger(ChipletSessionPropertyManagerFactory.class), "Chiplet session defaults", "the operator's rules apply");
            ChipletSessionPropertyManager manager = new ChipletSessionPropertyManager(rules, Optional.of(() -> policy), OptionalInt.empty(), key -> io.chiplet.placement.SkewHint.NONE, () -> {
                throw new NoSuchMethodError("'java.util.List io.trino.spi.eventlistener.QueryStatistics.getTaskStatistics()'");
            }, failOpen);

            for (int query = 0; query < 2; query++) {
                assertThat(manager.getSystemSessionProperties(query("etl_bob", "cli"))).isEqualTo(Map.of("task_concurrency", "2", "query_max_execution_time", "1h"));
                assertThat(manager.getSystemSessionProperties(query("alice", "cli"))).isEmpty();
            }
            assertThat(recorded.warnings()).singleElement().satisfies(warning -> assertThat(warning)
                    .startsWith("Chiplet session defaults off, the operator's rules apply: computing the defaults of a query of user etl_bob failed: java.lang.NoSuchMethodError"));
        }
    }

    @Test
    void aBrokenManagerShowsInTheCoordinatorTable()
            throws Exception
    {
        CoordinatorParts parts = new CoordinatorParts();
        new ChipletSessionPropertyManagerFactory(new SkewHistory(16), new SkewEvidenceLog(4), new WorkerReports(), Clock.systemUTC(), parts)
                .create(config(Map.of(SessionManagerSettings.WORKERS, "three")), CONTEXT);
        assertThat(parts.current()).first().satisfies(part -> {
            assertThat(part.part()).isEqualTo(CoordinatorParts.SESSION_PROPERTY_MANAGER);
            assertThat(part.state()).isEqualTo(CoordinatorParts.OFF);
            assertThat(part.detail()).isEqualTo("the chiplet defaults are not applied: chiplet.workers = 'three' is not usable: expected a whole number of nodes that run tasks, at least 1");
        });
    }

    @Test
    void withoutANamedTopologyTheWorkersReportsSizeTheDefaultsNeverTheCoordinatorsMachine()
    {
        WorkerReports reports = new WorkerReports();
        try (LogCapture recorded = LogCapture.of(ChipletSessionPropertyManagerFactory.class)) {
            SessionPropertyConfigurationManager manager = new ChipletSessionPropertyManagerFactory(new SkewHistory(16), reports)
                    .create(Map.of(SessionManagerSettings.STATE_DIR, directory.toString()), CONTEXT);

            // No report yet: Trino's own defaults, and the log says so.
            assertThat(manager.getSystemSessionProperties(query("alice", "cli"))).isEmpty();
            assertThat(recorded.messages()).anySatisfy(line -> assertThat(line).contains("no worker has reported its topology yet"));

            // Two one-core-per-chiplet workers sharing a two-chiplet host, a 16-core worker on another: the smallest share.
            reports.update(List.of(new WorkerReport("w1", "host-a", 2, 2), new WorkerReport("w2", "host-a", 2, 2), new WorkerReport("w3", "host-b", 2, 16)),
                    java.time.Instant.parse("2026-11-26T12:00:00Z"));
            assertThat(manager.getSystemSessionProperties(query("alice", "cli"))).isEqualTo(Map.of(
                    "task_concurrency", "1", "min_hash_partition_count", "3", "max_hash_partition_count", "102"));
            assertThat(recorded.messages()).anySatisfy(line -> assertThat(line)
                    .startsWith("Chiplet session defaults on the topology the workers reported (3 workers: w1 on host-a with 2 chiplets and 2 cores")
                    .contains("task_concurrency 1 ("));
            assertThat(recorded.warnings()).isEmpty();
        }
        // Kept for the next start.
        WorkerReports restarted = new WorkerReports();
        restarted.keepIn(directory.resolve(io.chiplet.trino.cluster.WorkerReportsFile.FILE_NAME));
        assertThat(restarted.current().reports()).hasSize(3);
        assertThat(restarted.current().saved()).isTrue();
    }

    private Map<String, String> config(Map<String, String> extra)
            throws IOException, URISyntaxException
    {
        Path rules = directory.resolve("rules.json");
        Files.writeString(rules, """
                [
                  {
                    "user": "etl_.*",
                    "sessionProperties": {"task_concurrency": "2", "query_max_execution_time": "1h"},
                    "catalogSessionProperties": {"tpch": {"splits_per_node": "1"}}
                  }
                ]
                """);
        Map<String, String> config = new HashMap<>();
        config.put(SessionManagerSettings.RULES_FILE, rules.toString());
        config.put(SessionManagerSettings.HWLOC_XML, hybridLaptop().toString());
        config.putAll(extra);
        return config;
    }

    static Path hybridLaptop()
            throws URISyntaxException
    {
        return Path.of(ChipletSessionPropertyManagerFactoryTest.class.getResource("/hwloc-xml/20em64t-hybrid-1p6c2t+2ca4co1t.xml").toURI());
    }

    private static SessionConfigurationContext query(String user, String source)
    {
        return new SessionConfigurationContext(user, Optional.of(source), Set.of(), Optional.of("SELECT"), new ResourceGroupId("global"));
    }
}
