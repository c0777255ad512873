package io.chiplet.trino;

import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.trino.testing.TestingSession.testSessionBuilder;

/** A coordinator and two workers in this JVM, with TPC-H and the chiplet plugin's coordinator parts. */
final class CoordinatorQueryRunner
{
    private CoordinatorQueryRunner() {}

    static DistributedQueryRunner create(ChipletTrinoPlugin plugin)
            throws Exception
    {
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session("test"))
                .setWorkerCount(2)
                .build();
        try {
            runner.installPlugin(new TpchPlugin());
            runner.createCatalog("tpch", "tpch");
            // Installing the plugin registers its factories; the testing event listener manager creates the
            // chiplet listener from its factory right away, with no settings.
            runner.installPlugin(plugin);
            return runner;
        }
        catch (Exception | Error e) {
            runner.close();
            throw e;
        }
    }

    /**
     * Loads the {@code chiplet} session property manager as {@code etc/session-property-config.properties} with these
     * settings would.
     */
    static void loadSessionManager(DistributedQueryRunner runner, Map<String, String> settings)
    {
        runner.getCoordinator().getSessionPropertyDefaults().setConfigurationManager("chiplet", settings);
    }

    static Session session(String source)
    {
        return testSessionBuilder()
                .setCatalog("tpch")
                .setSchema("tiny")
                .setSource(source)
                .build();
    }

    /** What {@code SHOW SESSION} says a system property's value is for this session. */
    static String shownValue(DistributedQueryRunner runner, Session session, String property)
    {
        MaterializedResult rows = runner.execute(session, "SHOW SESSION LIKE '" + property + "'");
        return rows.getMaterializedRows().stream()
                .filter(row -> row.getField(0).equals(property))
                .map(row -> (String) row.getField(1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("SHOW SESSION has no " + property + ": " + rows));
    }

    static List<MaterializedRow> rows(DistributedQueryRunner runner, Session session, String sql)
    {
        return runner.execute(session, sql).getMaterializedRows();
    }

    /** Waits for the completed-query events, which Trino delivers after the client has its result. */
    static List<CompletedStageSkew> awaitStages(ChipletTrinoPlugin plugin, Predicate<CompletedStageSkew> wanted)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            List<CompletedStageSkew> stages = plugin.skewHistory().recent().stream().filter(wanted).toList();
            if (!stages.isEmpty() || System.nanoTime() > deadline) {
                return stages;
            }
            Thread.sleep(50);
        }
    }

    static Path resource(String name)
            throws URISyntaxException
    {
        return Path.of(CoordinatorQueryRunner.class.getResource(name).toURI());
    }
}
