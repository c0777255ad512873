package io.chiplet.trino;

import io.chiplet.trino.session.ChipletSessionPropertyManagerFactory;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.chiplet.trino.CoordinatorQueryRunner.awaitStages;
import static io.chiplet.trino.CoordinatorQueryRunner.loadSessionManager;
import static io.chiplet.trino.CoordinatorQueryRunner.resource;
import static io.chiplet.trino.CoordinatorQueryRunner.rows;
import static io.chiplet.trino.CoordinatorQueryRunner.session;
import static io.chiplet.trino.CoordinatorQueryRunner.shownValue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The coordinator parts inside a real Trino: session defaults under user settings and over nothing the operator
 * set, the skew listener on real stage statistics, and the feedback from one to the other.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChipletCoordinatorTest
{
    /** 60 175 rows in tpch.tiny; nine in ten get the window partition key 0. */
    private static final String SKEWED_WINDOW = """
            SELECT count(*), max(rn)
            FROM (
                SELECT row_number() OVER (PARTITION BY k ORDER BY orderkey, linenumber) AS rn
                FROM (SELECT orderkey, linenumber, CASE WHEN orderkey % 10 = 0 THEN orderkey ELSE 0 END AS k FROM lineitem))
            """;

    private final ChipletTrinoPlugin plugin = new ChipletTrinoPlugin();
    private DistributedQueryRunner runner;
    private LogCapture warnings;

    @BeforeAll
    void start()
            throws Exception
    {
        Path rules = Files.createTempFile("session-property-rules", ".json");
        Files.writeString(rules, """
                [
                  {"source": "nightly-etl", "sessionProperties": {"task_concurrency": "2", "query_max_run_time": "1h"}}
                ]
                """);
        runner = CoordinatorQueryRunner.create(plugin);
        warnings = LogCapture.of(ChipletSessionPropertyManagerFactory.class);
        // The workers' topology: a hybrid laptop's 14 cores (6 P with two threads, 8 E), so task_concurrency 8.
        loadSessionManager(runner, Map.of(
                "session-property-manager.config-file", rules.toString(),
                "chiplet.hwloc-xml", resource("/hwloc-xml/20em64t-hybrid-1p6c2t+2ca4co1t.xml").toString()));
        // One query, so the listener has seen how many nodes run tasks.
        rows(runner, session("warm-up"), "SELECT count(*) FROM orders");
        assertThat(awaitStages(plugin, stage -> stage.source().equals("warm-up"))).isNotEmpty();
    }

    @AfterAll
    void stop()
    {
        if (runner != null) {
            runner.close();
        }
        if (warnings != null) {
            warnings.close();
        }
    }

    @Test
    void showSessionHasTheChipletDefaults()
    {
        Session session = session("dashboards");

        assertThat(shownValue(runner, session, "task_concurrency")).isEqualTo("8");
        // Three nodes run tasks (the coordinator schedules work on itself in this runner): one partition each,
        // Trino's 100 rounded up to a multiple of 3.
        assertThat(shownValue(runner, session, "min_hash_partition_count")).isEqualTo("3");
        assertThat(shownValue(runner, session, "max_hash_partition_count")).isEqualTo("102");
        assertThat(warnings.warnings()).isEmpty();
    }

    @Test
    void theUsersOwnSettingWins()
    {
        Session session = Session.builder(session("user-settings"))
                .setSystemProperty("task_concurrency", "4")
                .setSystemProperty("max_hash_partition_count", "5")
                .build();

        assertThat(shownValue(runner, session, "task_concurrency")).isEqualTo("4");
        assertThat(shownValue(runner, session, "max_hash_partition_count")).isEqualTo("5");
        assertThat(shownValue(runner, session, "min_hash_partition_count")).isEqualTo("3");
        assertThat(rows(runner, session, "SELECT orderstatus, count(*) FROM orders GROUP BY orderstatus")).hasSize(3);
    }

    @Test
    void theOperatorsRulesStillApply()
    {
        Session session = session("nightly-etl");

        assertThat(shownValue(runner, session, "task_concurrency")).isEqualTo("2");
        assertThat(shownValue(runner, session, "query_max_run_time")).isEqualTo("1h");
        assertThat(shownValue(runner, session, "max_hash_partition_count")).isEqualTo("102");
        Session userOverRule = Session.builder(session).setSystemProperty("task_concurrency", "16").build();
        assertThat(shownValue(runner, userOverRule, "task_concurrency")).isEqualTo("16");
    }

    @Test
    void anEvenScanIsNotTakenForSkew()
            throws InterruptedException
    {
        rows(runner, session("even-scan"), "SELECT sum(extendedprice) FROM lineitem");

        List<CompletedStageSkew> stages = awaitStages(plugin, stage -> stage.source().equals("even-scan"));
        // The scan: every node reads its own share of the TPC-H splits.
        assertThat(stages).anySatisfy(stage -> {
            assertThat(stage.tasks()).isEqualTo(3);
            assertThat(stage.inputRows()).isEqualTo(60_175);
            assertThat(stage.maxOverMedian()).isLessThan(1.5);
        });
        assertThat(stages).allSatisfy(stage -> assertThat(stage.hint()).isNotEqualTo("spread"));
    }

    @Test
    void failedQueriesAreNotMeasured()
            throws InterruptedException
    {
        Session session = session("failing-job");
        assertThatThrownBy(() -> runner.execute(session, "SELECT sum(1 / (orderkey - orderkey)) FROM lineitem"))
                .hasMessageContaining("Division by zero");
        rows(runner, session, "SELECT count(*) FROM lineitem");

        List<CompletedStageSkew> stages = awaitStages(plugin, stage -> stage.source().equals("failing-job"));
        assertThat(stages).isNotEmpty();
        assertThat(stages.stream().map(CompletedStageSkew::queryId).distinct()).hasSize(1);
    }

    @Test
    void aSkewedQueryShapeRunTwiceGivesItsUserAndSourceSpreadDefaults()
            throws InterruptedException
    {
        Session session = session("skewed-reports");
        List<Object> result = rows(runner, session, SKEWED_WINDOW).getFirst().getFields();
        assertThat(result.get(0)).isEqualTo(60_175L);
        assertThat((long) result.get(1)).isBetween(50_000L, 60_175L);

        List<CompletedStageSkew> stages = awaitStages(plugin, stage -> stage.source().equals("skewed-reports"));
        assertThat(stages).isNotEmpty();
        CompletedStageSkew window = stages.stream().filter(stage -> stage.hint().equals("spread")).findFirst()
                .orElseThrow(() -> new AssertionError("no stage measured as skewed: " + stages));
        assertThat(window.tasks()).isEqualTo(3);
        assertThat(window.inputRows()).isEqualTo(60_175);
        // One task got the nine in ten rows of key 0 and its share of the rest; the other two about 3 000 each.
        assertThat(window.maxOverMedian()).isGreaterThan(10);
        assertThat(window.maxToMean()).isBetween(2.5, 3.0);
        assertThat(window.gini()).isBetween(0.5, 0.67);
        // 7 tasks over its stages and 60 175 rows in the window's: evidence for the shape, named in the table.
        assertThat(window.evidence()).isTrue();
        assertThat(window.queryShape()).matches("[0-9a-f]{16}");

        // One run of the shape is not evidence enough; the second is (core's SkewEvidence.MIN_QUERIES).
        assertThat(shownValue(runner, session, "task_concurrency")).isEqualTo("8");
        rows(runner, session, SKEWED_WINDOW.replace("= 0", "= 00"));
        awaitStages(plugin, stage -> stage.source().equals("skewed-reports") && stages.stream().noneMatch(seen -> seen.queryId().equals(stage.queryId())));

        // Later queries of the same user and source get more, smaller partitions and drivers; other sources do not.
        assertThat(shownValue(runner, session, "task_concurrency")).isEqualTo("16");
        assertThat(shownValue(runner, session, "max_hash_partition_count")).isEqualTo("204");
        assertThat(shownValue(runner, session("other-reports"), "task_concurrency")).isEqualTo("8");
    }
}
