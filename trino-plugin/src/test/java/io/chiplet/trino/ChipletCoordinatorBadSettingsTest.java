package io.chiplet.trino;

import io.chiplet.trino.session.ChipletSessionPropertyManagerFactory;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.chiplet.trino.CoordinatorQueryRunner.loadSessionManager;
import static io.chiplet.trino.CoordinatorQueryRunner.rows;
import static io.chiplet.trino.CoordinatorQueryRunner.session;
import static io.chiplet.trino.CoordinatorQueryRunner.shownValue;
import static org.assertj.core.api.Assertions.assertThat;

/** A misspelt setting: queries run as without the chiplet defaults, the operator's rules still apply, one warning. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChipletCoordinatorBadSettingsTest
{
    private DistributedQueryRunner runner;
    private LogCapture warnings;

    @BeforeAll
    void start()
            throws Exception
    {
        Path rules = Files.createTempFile("session-property-rules", ".json");
        Files.writeString(rules, """
                [{"source": "nightly-etl", "sessionProperties": {"query_max_run_time": "1h"}}]
                """);
        runner = CoordinatorQueryRunner.create(new ChipletTrinoPlugin());
        warnings = LogCapture.of(ChipletSessionPropertyManagerFactory.class);
        loadSessionManager(runner, Map.of(
                "session-property-manager.config-file", rules.toString(),
                "chiplet.workers-per-host", "two"));
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
    void queriesRunWithTrinosDefaultsTheRulesAndOneWarning()
    {
        Session session = session("nightly-etl");

        assertThat(rows(runner, session, "SELECT orderstatus, count(*) FROM orders GROUP BY orderstatus")).hasSize(3);
        assertThat(rows(runner, session("adhoc"), "SELECT count(*) FROM nation").getFirst().getField(0)).isEqualTo(25L);
        assertThat(shownValue(runner, session, "query_max_run_time")).isEqualTo("1h");
        String trinosOwn = (String) rows(runner, session, "SHOW SESSION LIKE 'task_concurrency'").getFirst().getField(2);
        assertThat(shownValue(runner, session, "task_concurrency")).isEqualTo(trinosOwn);
        assertThat(shownValue(runner, session, "min_hash_partition_count")).isEqualTo("4");
        assertThat(warnings.warnings()).singleElement().asString()
                .contains("chiplet.workers-per-host = 'two' is not usable: expected a whole number of worker JVMs per host, at least 1");
    }
}
