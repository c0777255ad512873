package io.chiplet.jmh.trino;

import io.chiplet.jmh.report.ReportDocument;
import io.chiplet.measure.OnOffComparison;
import io.chiplet.jmh.tpch.OnOffReport;
import io.chiplet.measure.OnOffRounds;
import io.chiplet.jmh.tpch.ResultFingerprints;
import io.chiplet.jmh.tpch.TpchBenchArguments;
import io.chiplet.jmh.trino.BenchServerProtocol.Placement;
import io.chiplet.jmh.trino.BenchServerProtocol.Result;
import io.chiplet.trino.session.SessionDefaultsPolicy;
import io.chiplet.trino.session.SessionManagerSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * All 22 TPC-H queries in Trino, plugin on against plugin off: two {@link TrinoBenchServer}s, each a Trino cluster in
 * a JVM of its own, one with the plugin and one without. After an untimed warm-up (every query once on each),
 * {@link OnOffRounds#runPaired} runs each query on both servers back to back, alternating which goes first, and
 * {@link OnOffReport} reports the medians over every round. With {@code --forks F} that is done F times, each time
 * with a fresh pair of servers: a JVM carries its JIT compilations and heap layout into every round it runs, and
 * fresh pairs spread that over both sides.
 * <p>
 * Why servers that live through the run and pairs of runs: on the shared development VM the machine's speed drifts
 * by 10 % and more over minutes, which swamps a 2 % target when each side runs all 22 queries (about four minutes) on
 * its own fresh cluster; a pair of runs of one query lies within seconds. And a Trino server runs for days in
 * production, with one cluster per JVM: the agent there sees its own server's threads only, and JIT profiles and heap
 * belong to one server. Only one server runs a query at a time; the other idles.
 * <p>
 * "On" installs the plugin, creates a {@code chiplet} catalog (so the worker's placement agent places the query
 * threads) and loads the {@code chiplet} session property manager; "off" is plain Trino. Both sides run with the
 * session properties the plugin chose ({@code task_concurrency}, {@code min_/max_hash_partition_count}): the manager
 * gives them to the "on" side, the "off" side sets them itself, so the ratio measures the plugin's placement and
 * per-query overhead rather than Trino's default concurrency. Skew feedback is off so that every query of the "on"
 * side runs with exactly those settings. The benchmark stops if the plugin does not place threads, if the sides' session
 * properties differ, or if any run of a query gives another result (row count and checksum).
 *
 * <pre>
 * TrinoTpchOnOffBenchmark [--scale-factor 1] [--rounds 3] [--forks 1] [--queries 1,3,...] [--root DIR] [--no-report]
 * </pre>
 * {@code bin/chiplet bench --trino-tpch-sf SF [--rounds N]} runs this on the Trino class path the trino-plugin build
 * writes ({@code trino-plugin/target/bench/}) and writes its section of {@code docs/performance.md}; the servers get
 * this JVM's options (its heap among them) and class path.
 */
public final class TrinoTpchOnOffBenchmark
{
    /** The session properties the chiplet session property manager sets. */
    static final List<String> SESSION_PROPERTIES = List.of(
            SessionDefaultsPolicy.TASK_CONCURRENCY,
            SessionDefaultsPolicy.MIN_HASH_PARTITION_COUNT,
            SessionDefaultsPolicy.MAX_HASH_PARTITION_COUNT);

    /** What the "on" server chose and placed: the session properties and, after the rounds, the agent's state. */
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
    private final ResultFingerprints results = new ResultFingerprints();

    private TrinoTpchOnOffBenchmark(TpchBenchArguments arguments, Path leaseDirectory)
    {
        this.arguments = requireNonNull(arguments, "arguments is null");
        this.leaseDirectory = requireNonNull(leaseDirectory, "leaseDirectory is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        TpchBenchArguments arguments;
        try {
            arguments = TpchBenchArguments.parse(args, "--trino-tpch-sf");
            arguments.requireReportTarget();
        }
        catch (IllegalArgumentException e) {
            System.err.println("chiplet bench --trino-tpch-sf: " + e.getMessage());
            System.exit(2);
            return;
        }
        // The plugin's chiplet leases are host-wide; a directory of our own keeps other Trino JVMs on this host
        // (tests, other benchmarks) from taking the chiplets the "on" side should use, and ours from them.
        Path leases = Files.createTempDirectory("chiplet-bench-leases");
        boolean failed = true;
        try {
            new TrinoTpchOnOffBenchmark(arguments, leases).run(System.out);
            failed = false;
        }
        catch (IllegalStateException e) {
            // Our own checks: different results, a plugin that does not place, settings that differ between the sides.
            System.err.println("chiplet bench --trino-tpch-sf: " + e.getMessage());
        }
        catch (Exception | Error e) {
            System.err.println("chiplet bench --trino-tpch-sf: the benchmark failed: " + e);
            e.printStackTrace(System.err);
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
        List<Fork> forks = new ArrayList<>();
        for (int fork = 1; fork <= arguments.forks(); fork++) {
            forks.add(fork(fork, out));
        }
        OnOffComparison comparison = new OnOffComparison(arguments.queries(),
                forks.stream().flatMap(fork -> fork.rounds().comparison().on().stream()).toList(),
                forks.stream().flatMap(fork -> fork.rounds().comparison().off().stream()).toList());
        OptionalDouble peakLoad = forks.stream().map(fork -> fork.rounds().peakLoad()).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).max();
        // Every fork's "on" server chose the same settings (they are fitted to this machine); the last one's placement is reported.
        OnOffReport onOff = report(arguments, forks.getLast().onSide(), start, Duration.between(start, Instant.now()), Runtime.version().toString(),
                peakLoad, Runtime.getRuntime().availableProcessors());
        String body = onOff.render(comparison);
        out.println();
        out.println(body);
        // The plugins' kind of report, judged by the same rule: its line, and its JSON and HTML beside the benchmark's data.
        onOff.writeMeasureReport(comparison, arguments.root().resolve("jmh/target/chiplet-bench"), sectionName(arguments), out);
        if (arguments.report()) {
            Path report = arguments.root().resolve("docs/performance.md");
            ReportDocument.writeSection(report, sectionName(arguments), body);
            out.println("chiplet bench: wrote " + report + " (section \"" + sectionName(arguments) + "\")");
        }
    }

    /** What one pair of servers measured, and what its "on" server chose and placed. */
    private record Fork(OnOffRounds.Result rounds, OnSide onSide) {}

    /** Starts a pair of servers, warms both up and runs the rounds on them. */
    private Fork fork(int fork, PrintStream out)
            throws Exception
    {
        out.printf(Locale.ROOT, "fork %d/%d: starting the Trino servers, plugin on and off ...%n", fork, arguments.forks());
        try (BenchServerProcess on = BenchServerProcess.start("the plugin-on server", List.of(
                        "--plugin", "on", "--schema", schema(arguments), "--lease-dir", leaseDirectory.toString()));
                BenchServerProcess off = BenchServerProcess.start("the plugin-off server", offArguments(on.ready().settings()))) {
            Map<String, String> settings = on.ready().settings();
            requirePlacing(on.ready().placement().orElseThrow());
            if (!off.ready().settings().equals(settings)) {
                throw new IllegalStateException("the plugin-off server runs with %s, not the plugin's session properties %s: the ratio would not be the plugin's"
                        .formatted(off.ready().settings(), settings));
            }
            // Untimed: the first runs of a query compile its operators in each JVM and fill the cluster's pools.
            out.println("plugin's session properties: " + settings + "; warm-up (untimed), every query on both servers ...");
            for (int query : arguments.queries()) {
                check(query, "the warm-up with the plugin on", on.execute(query));
                check(query, "the warm-up with the plugin off", off.execute(query));
            }
            OnOffRounds.Result rounds = OnOffRounds.runPaired(arguments.queries(), arguments.rounds(), (plugin, query) -> {
                Result run = (plugin ? on : off).execute(query);
                check(query, "a timed run with the plugin " + (plugin ? "on" : "off"), run);
                return run.nanos() / 1e9;
            }, ManagementFactory.getOperatingSystemMXBean()::getSystemLoadAverage, out);
            // Trino starts runner threads as it needs them: after the rounds the agent has placed them all.
            Placement placed = on.status().placement().orElseThrow();
            requirePlacing(placed);
            out.println("placement: policy " + placed.policy() + ", " + placed.threads() + " query threads, topology " + placed.topologySource());
            return new Fork(rounds, new OnSide(settings, placed.policy(), placed.topologySource(), placed.threads()));
        }
    }

    private List<String> offArguments(Map<String, String> settings)
    {
        List<String> offArguments = new ArrayList<>(List.of("--plugin", "off", "--schema", schema(arguments)));
        settings.forEach((name, value) -> offArguments.addAll(List.of("--set", name + "=" + value)));
        return offArguments;
    }

    private void check(int query, String run, Result result)
    {
        results.check(query, run, result.fingerprint());
    }

    /** The plugin fails open; a benchmark of it must not: "on" without placement would measure plain Trino. */
    private static void requirePlacing(Placement placement)
    {
        if (!placement.placing()) {
            throw new IllegalStateException("the chiplet plugin places no threads (%s): the \"on\" side would be plain Trino".formatted(placement.problem()));
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

    /** How the run is described in its section: the servers, the shared session properties, what "on" placed. */
    static OnOffReport report(TpchBenchArguments arguments, OnSide on, Instant start, Duration took, String jdk, OptionalDouble peakLoad, int cpus)
    {
        String shared = ("Each side is a Trino server in a JVM of its own that lives through its rounds (`DistributedQueryRunner`: a coordinator "
                + "and one worker, the coordinator running no tasks, `join-distribution-type=AUTOMATIC` as in a default Trino), reading the "
                + "`tpch` connector's schema `%s` (generated on the fly by every query, decimal types); only one of them runs a query at a time. "
                + "Both sides run with the session properties the plugin's session property manager chose (%s): the manager gives them to the "
                + "\"on\" side, the \"off\" side sets them itself, so the ratio measures the plugin's thread placement (the `chiplet` catalog's "
                + "agent, policy `%s` on `%s`, placed %d query threads) and its per-query overhead. Skew feedback is off (`%s=0`) so that no "
                + "query's settings depend on the queries before it. Every run of a query gave the same result (row count and checksum), on and off.").formatted(
                schema(arguments),
                String.join(", ", on.settings().entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").toList()),
                on.policy(), on.topologySource(), on.threads(), SessionManagerSettings.SKEW_WINDOW_QUERIES);
        String command = "bin/chiplet bench --trino-tpch-sf %s --rounds %d".formatted(arguments.scale(), arguments.rounds())
                + (arguments.forks() == 1 ? "" : " --forks " + arguments.forks());
        String method = arguments.forks() == 1
                ? "after an untimed warm-up of both servers, each query run on both back to back, alternating which goes first"
                : "%d pairs of servers started afresh, %d %s each after an untimed warm-up, each query run on both back to back, alternating which goes first"
                        .formatted(arguments.forks(), arguments.rounds(), arguments.rounds() == 1 ? "round" : "rounds");
        return new OnOffReport(sectionName(arguments), command, method, shared, start, took, jdk, peakLoad, cpus);
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
