package io.chiplet.jmh.trino;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.chiplet.jmh.report.PerformanceReport;
import io.chiplet.jmh.tpch.OnOffReport;
import io.chiplet.jmh.tpch.OnOffRounds;
import io.chiplet.jmh.tpch.ResultFingerprints;
import io.chiplet.jmh.tpch.TpchBenchArguments;
import io.chiplet.trino.ChipletTrinoPlugin;
import io.chiplet.trino.TpchQueries;
import io.chiplet.trino.connector.ChipletConfig;
import io.chiplet.trino.session.SessionDefaultsPolicy;
import io.chiplet.trino.session.SessionManagerSettings;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static java.util.Objects.requireNonNull;

/**
 * All 22 TPC-H queries in an in-process Trino, plugin on against plugin off, in the interleaved rounds of
 * {@link OnOffRounds} (after one untimed warm-up cluster with the plugin, each side of a round a fresh cluster running
 * every query once after one untimed query), reported by {@link OnOffReport}.
 * <p>
 * A cluster is a {@link DistributedQueryRunner} with a coordinator and one worker, the coordinator running no tasks:
 * a production cluster's shape, in which the worker's query threads are the ones the placement agent places and the
 * coordinator holds the session property manager and the event listener. On two CPUs one worker is what fits: every
 * Trino node has its own pool of {@code 2 x CPUs} query threads, so more nodes in one JVM would only add pools (and
 * exchanges over HTTP) competing for the same CPUs. Joins are distributed as a default Trino does ({@code AUTOMATIC},
 * which the runner replaces by {@code PARTITIONED} for its tests). The data is the {@code tpch} connector's, generated on the fly
 * by every query (schema {@code sf1} for SF 1, decimal types as the specification has them).
 * <p>
 * "On" installs {@link ChipletTrinoPlugin}, creates a {@code chiplet} catalog (so the node's placement agent places
 * the query threads) and loads the {@code chiplet} session property manager; "off" is plain Trino. Both sides run
 * with the session properties the plugin chose ({@code task_concurrency}, {@code min_/max_hash_partition_count}):
 * the manager gives them to the "on" side, the "off" side sets them itself, so the ratio measures the plugin's
 * placement, listener and per-query overhead rather than Trino's default concurrency. Skew feedback is off so that
 * every query of the "on" side runs with exactly those settings. Every run of a query must give the same result
 * (row count and checksum) or the benchmark stops.
 *
 * <pre>
 * TrinoTpchOnOffBenchmark [--scale-factor 1] [--rounds 3] [--queries 1,3,...] [--root DIR] [--no-report]
 * </pre>
 * {@code bin/chiplet bench --trino-tpch-sf SF [--rounds N]} runs this on the Trino class path the trino-plugin build
 * writes ({@code trino-plugin/target/bench/}) and writes its section of {@code docs/performance.md}.
 */
public final class TrinoTpchOnOffBenchmark
{
    /** The session properties the chiplet session property manager sets. */
    static final List<String> SESSION_PROPERTIES = List.of(
            SessionDefaultsPolicy.TASK_CONCURRENCY,
            SessionDefaultsPolicy.MIN_HASH_PARTITION_COUNT,
            SessionDefaultsPolicy.MAX_HASH_PARTITION_COUNT);

    /** Nodes that run tasks: the one worker. */
    private static final int TASK_NODES = 1;

    /** The column names and types the TPC-H queries are written for. */
    private static final Map<String, String> TPCH_CATALOG = Map.of("tpch.column-naming", "STANDARD", "tpch.double-type-mapping", "DECIMAL");

    /** What the warm-up learned about the "on" side: the session properties chosen and how the agent placed. */
    record OnSide(Map<String, String> settings, String policy, String topologySource, long threads)
    {
        OnSide
        {
            settings = Map.copyOf(settings);
            requireNonNull(policy, "policy is null");
            requireNonNull(topologySource, "topologySource is null");
        }
    }

    private final TpchBenchArguments arguments;
    private final Path leaseDirectory;
    private final Session session;
    private final ResultFingerprints results = new ResultFingerprints();

    private TrinoTpchOnOffBenchmark(TpchBenchArguments arguments, Path leaseDirectory)
    {
        this.arguments = requireNonNull(arguments, "arguments is null");
        this.leaseDirectory = requireNonNull(leaseDirectory, "leaseDirectory is null");
        this.session = testSessionBuilder()
                .setCatalog("tpch")
                .setSchema(schema(arguments))
                .setSource("chiplet-bench")
                .build();
    }

    public static void main(String[] args)
            throws Exception
    {
        TpchBenchArguments arguments;
        try {
            arguments = TpchBenchArguments.parse(args, "--trino-tpch-sf");
        }
        catch (IllegalArgumentException e) {
            System.err.println("chiplet bench --trino-tpch-sf: " + e.getMessage());
            System.exit(2);
            return;
        }
        // Airlift's logging takes System.out and System.err over (as the loggers "stdout" and "stderr", at INFO): progress
        // and the section go to the console itself, the log keeps warnings, what else is printed and the plugin's one
        // line per node, not every server's start-up chatter.
        PrintStream out = System.out;
        PrintStream err = System.err;
        Logging logging = Logging.initialize();
        logging.setLevel("", Level.WARN);
        for (String logger : List.of("io.chiplet", "stdout", "stderr")) {
            logging.setLevel(logger, Level.INFO);
        }
        // The plugin's chiplet leases are host-wide; a directory of our own keeps other Trino JVMs on this host
        // (tests, other benchmarks) from taking the chiplets the "on" side should use, and ours from them.
        Path leases = Files.createTempDirectory("chiplet-bench-leases");
        boolean failed = true;
        try {
            new TrinoTpchOnOffBenchmark(arguments, leases).run(out);
            failed = false;
        }
        catch (IllegalStateException e) {
            // Our own checks: different results, a plugin that does not place, settings that differ between the sides.
            err.println("chiplet bench --trino-tpch-sf: " + e.getMessage());
        }
        catch (Exception | Error e) {
            err.println("chiplet bench --trino-tpch-sf: the benchmark failed: " + e);
            e.printStackTrace(err);
        }
        finally {
            deleteTree(leases);
        }
        if (failed) {
            System.exit(1);
        }
    }

    private void run(PrintStream out)
            throws Exception
    {
        Instant start = Instant.now();
        // Untimed: whichever side ran first in a cold JVM would pay for class loading and JIT compilation. With the
        // plugin, so the plugin's classes warm up too, and so its session properties are known before any side runs.
        out.println("warm-up (untimed), plugin on ...");
        OnSide on = warmUp();
        out.println("plugin's session properties: " + on.settings() + "; placement: policy " + on.policy() + ", "
                + on.threads() + " query threads, topology " + on.topologySource());
        OnOffRounds.Result result = OnOffRounds.run(arguments.queries(), arguments.rounds(), plugin -> side(plugin, on.settings()),
                ManagementFactory.getOperatingSystemMXBean()::getSystemLoadAverage, out);

        String body = report(arguments, on, start, Duration.between(start, Instant.now()), Runtime.version().toString(), result.peakLoad(),
                Runtime.getRuntime().availableProcessors()).render(result.comparison());
        out.println();
        out.println(body);
        if (arguments.report()) {
            Path report = arguments.root().resolve("docs/performance.md");
            PerformanceReport.writeSection(report, sectionName(arguments), body);
            out.println("chiplet bench: wrote " + report + " (section \"" + sectionName(arguments) + "\")");
        }
    }

    static String sectionName(TpchBenchArguments arguments)
    {
        return "Trino TPC-H SF " + arguments.scale() + ": plugin on vs off";
    }

    /** The {@code tpch} connector's schema of that scale factor: {@code sf1}, {@code sf0.01}. */
    static String schema(TpchBenchArguments arguments)
    {
        return "sf" + arguments.scale();
    }

    /** How the run is described in its section: the cluster, the shared session properties, what "on" placed. */
    static OnOffReport report(TpchBenchArguments arguments, OnSide on, Instant start, Duration took, String jdk, OptionalDouble peakLoad, int cpus)
    {
        String shared = ("Each side is an in-process Trino (`DistributedQueryRunner`: a coordinator and one worker, the coordinator running no tasks, "
                + "`join-distribution-type=AUTOMATIC` as in a default Trino) "
                + "reading the `tpch` connector's schema `%s` (generated on the fly by every query, decimal types). Both sides run with the session "
                + "properties the plugin's session property manager chose (%s): the manager gives them to the \"on\" side, the \"off\" side sets them "
                + "itself, so the ratio measures the plugin's thread placement (the `chiplet` catalog's agent, policy `%s` on `%s`, placed %d query "
                + "threads), its event listener and its per-query overhead. Skew feedback is off (`%s=0`) so that no query's settings depend on "
                + "the queries before it. Every fresh cluster runs the first query once, untimed, so that its start-up is not charged to that query. Every run of a query gave the same result (row count and checksum), on and off.").formatted(
                schema(arguments),
                String.join(", ", on.settings().entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").toList()),
                on.policy(), on.topologySource(), on.threads(), SessionManagerSettings.SKEW_WINDOW_QUERIES);
        return new OnOffReport(sectionName(arguments), "bin/chiplet bench --trino-tpch-sf %s --rounds %d".formatted(arguments.scale(), arguments.rounds()),
                "a fresh Trino cluster", shared, start, took, jdk, peakLoad, cpus);
    }

    /** Runs every query once on a cluster with the plugin, untimed, and reads what the plugin chose. */
    private OnSide warmUp()
            throws Exception
    {
        try (DistributedQueryRunner runner = start(true)) {
            Map<String, String> settings = effectiveSettings(runner, session);
            runQueries(runner, session, "the warm-up");
            MaterializedResult status = runner.execute(session, "SELECT policy, topology_source, threads FROM chiplet.runtime.status");
            MaterializedRow row = status.getMaterializedRows().getFirst();
            return new OnSide(settings, (String) row.getField(0), (String) row.getField(1), (Long) row.getField(2));
        }
        finally {
            settle();
        }
    }

    /** One side of a round: a fresh cluster, every query once, timed. */
    private Map<Integer, Double> side(boolean plugin, Map<String, String> settings)
            throws Exception
    {
        String run = "a round with the plugin " + (plugin ? "on" : "off");
        try (DistributedQueryRunner runner = start(plugin)) {
            Session sideSession = session;
            if (!plugin) {
                Session.SessionBuilder builder = Session.builder(session);
                settings.forEach(builder::setSystemProperty);
                sideSession = builder.build();
            }
            Map<String, String> effective = effectiveSettings(runner, sideSession);
            if (!effective.equals(settings)) {
                throw new IllegalStateException("%s runs with %s, not the plugin's session properties %s: the ratio would not be the plugin's".formatted(run, effective, settings));
            }
            // A fresh cluster's first query varies between about 6 and 14 s at SF 1 on either side (compiling the
            // cluster's own operators, filling its pools): one untimed query first, so that start-up is not charged to q1.
            runner.execute(sideSession, TpchQueries.query(arguments.queries().getFirst()));
            return runQueries(runner, sideSession, run);
        }
        finally {
            settle();
        }
    }

    private Map<Integer, Double> runQueries(DistributedQueryRunner runner, Session querySession, String run)
    {
        Map<Integer, Double> seconds = new LinkedHashMap<>();
        for (int query : arguments.queries()) {
            String sql = TpchQueries.query(query);
            long begin = System.nanoTime();
            MaterializedResult result = runner.execute(querySession, sql);
            seconds.put(query, (System.nanoTime() - begin) / 1e9);
            results.check(query, run, ResultFingerprints.Fingerprint.of(result.getMaterializedRows().stream().map(MaterializedRow::getFields).toList()));
        }
        return seconds;
    }

    private DistributedQueryRunner start(boolean plugin)
            throws Exception
    {
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(TASK_NODES)
                .addCoordinatorProperty("node-scheduler.include-coordinator", "false")
                // Trino's own default, which the testing runner replaces by PARTITIONED for its tests.
                .addCoordinatorProperty("join-distribution-type", "AUTOMATIC")
                .build();
        try {
            runner.installPlugin(new TpchPlugin());
            runner.createCatalog("tpch", "tpch", TPCH_CATALOG);
            if (plugin) {
                runner.installPlugin(new ChipletTrinoPlugin());
                runner.createCatalog("chiplet", "chiplet", Map.of(ChipletConfig.LEASE_DIR, leaseDirectory.toString()));
                // As etc/session-property-config.properties would; the worker count is given, not learned from the
                // listener, so that the first query already gets the hash partition counts.
                runner.getCoordinator().getSessionPropertyDefaults().setConfigurationManager("chiplet", Map.of(
                        SessionManagerSettings.WORKERS, Integer.toString(TASK_NODES),
                        SessionManagerSettings.SKEW_WINDOW_QUERIES, "0"));
                requirePlacing(runner);
            }
            return runner;
        }
        catch (Exception | Error e) {
            runner.close();
            throw e;
        }
    }

    /** The plugin fails open; a benchmark of it must not: "on" without placement would measure plain Trino. */
    private void requirePlacing(DistributedQueryRunner runner)
    {
        // One row per node that runs tasks: the worker.
        List<MaterializedRow> status = runner.execute(session, "SELECT node, placing, problem FROM chiplet.runtime.status").getMaterializedRows();
        if (status.size() != TASK_NODES) {
            throw new IllegalStateException("chiplet.runtime.status answered for %d nodes, expected the %d that run tasks".formatted(status.size(), TASK_NODES));
        }
        for (MaterializedRow row : status) {
            if (!Boolean.TRUE.equals(row.getField(1))) {
                throw new IllegalStateException("the chiplet plugin places no threads on node %s (%s): the \"on\" side would be plain Trino".formatted(row.getField(0), row.getField(2)));
            }
        }
    }

    private static Map<String, String> effectiveSettings(DistributedQueryRunner runner, Session querySession)
    {
        Map<String, String> settings = new LinkedHashMap<>();
        for (MaterializedRow row : runner.execute(querySession, "SHOW SESSION").getMaterializedRows()) {
            String name = (String) row.getField(0);
            if (SESSION_PROPERTIES.contains(name)) {
                settings.put(name, (String) row.getField(1));
            }
        }
        if (!settings.keySet().containsAll(SESSION_PROPERTIES)) {
            throw new IllegalStateException("SHOW SESSION lacks some of " + SESSION_PROPERTIES + ": " + settings);
        }
        return settings;
    }

    /**
     * Collects the closed cluster's garbage now rather than in the middle of the next side's queries, which would
     * charge one side's heap to the other.
     */
    private static void settle()
    {
        System.gc();
    }

    private static void deleteTree(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
