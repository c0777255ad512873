package io.chiplet.spark.demo;

import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.OnOffComparison;
import io.chiplet.measure.OnOffRounds;
import io.chiplet.measure.PairedBootstrap;
import io.chiplet.measure.RatioEstimate;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.ChipletSparkPlugin;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.spark.tpch.TpchTables;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Topology;
import io.chiplet.tpch.TpchQueries;
import org.apache.spark.SparkEnv;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.TreeMap;

/**
 * The README's first command, in two parts. First TPC-H in embedded Spark with the chiplet plugin and without, in
 * interleaved rounds as the benchmark runs them ({@link OnOffRounds}: each round both sides, a fresh SparkContext
 * each, alternating which goes first), printing this machine's chiplets, where the tasks ran, the settings the plugin
 * chose, and the paired ratio with its bootstrap 95 % interval; a ratio whose interval holds 1 is reported as no
 * measurable difference, never as a result. Then, for the machines the demo carries ({@link BundledMachine}), what
 * the plugin would do there and what the papers measured on such machines ({@link MachineShowcase}). The JVM needs
 * Spark's module options (see {@code docs/spark.md}).
 *
 * <pre>ChipletDemo [--scale-factor 0.01] [--rounds 3] [--master local[*]] [--queries 1,6,13] [--warmup true] [--conf spark.chiplet.KEY=VALUE]...</pre>
 *
 * {@code bin/chiplet demo} builds the jars and starts this with Spark's module options.
 */
public final class ChipletDemo
{
    // Small enough for all 22 queries, both sides of three rounds, in a few minutes on a two-core machine.
    private static final double DEFAULT_SCALE = 0.01;
    private static final int DEFAULT_ROUNDS = 3;
    private static final String USAGE = "usage: chiplet demo [--scale-factor SF (default " + DEFAULT_SCALE + ")] [--rounds N (default " + DEFAULT_ROUNDS
            + "; 0: only the bundled machines)] [--queries 1,3,... (default all 22)] [--master local[*]] [--warmup true|false] [--conf spark.KEY=VALUE]...";
    private static final List<String> OPTIONS = List.of("--scale-factor", "--scale", "--rounds", "--master", "--warmup", "--queries", "--conf");
    private static final String METRICS_SOURCE = "plugin." + ChipletSparkPlugin.ENTRY_CLASS;
    private static final List<String> SIZED_KEYS = List.of(
            SparkPartitionSettings.SHUFFLE_PARTITIONS,
            SparkPartitionSettings.DEFAULT_PARALLELISM,
            SparkPartitionSettings.ADVISORY_PARTITION_SIZE,
            SparkPartitionSettings.SKEW_THRESHOLD);

    private final PrintStream out;
    private final double scale;
    private final String master;
    private final List<Integer> queries;
    private final Map<String, String> conf;
    private final boolean warmup;
    private final int rounds;
    // Chiplets of the machine as the plugin reads it; 0 when it could not be read.
    private int machineChiplets;
    // The policy the plugin runs with (its config name); empty when the settings could not be read.
    private String policy = "";

    /**
     * One side's run: the settings in force, each query's time and rows, and (with the plugin) the plugin's gauges:
     * {@code tasks*} summed over its sources, {@code measure.*} from the driver's, read after the application ended.
     */
    private record Run(boolean plugin, Map<String, String> settings, Map<Integer, Double> seconds, Map<Integer, List<String>> results, Map<String, Number> gauges)
    {
        long tasks(String name)
        {
            return gauges.getOrDefault(name, 0L).longValue();
        }

        OptionalDouble gauge(String name)
        {
            Number value = gauges.get(name);
            return value == null || Double.isNaN(value.doubleValue()) ? OptionalDouble.empty() : OptionalDouble.of(value.doubleValue());
        }
    }

    private ChipletDemo(PrintStream out, double scale, int rounds, String master, List<Integer> queries, Map<String, String> conf, boolean warmup)
    {
        this.warmup = warmup;
        this.rounds = rounds;
        this.out = out;
        this.scale = scale;
        this.master = master;
        this.queries = List.copyOf(queries);
        this.conf = Map.copyOf(conf);
    }

    public static void main(String[] args)
    {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "classpath:io/chiplet/spark/demo/demo-log4j2.properties");
        }
        ChipletDemo demo;
        try {
            demo = parse(args);
        }
        catch (IllegalArgumentException e) {
            if (e.getMessage().equals("help")) {
                System.out.println(USAGE);
                return;
            }
            System.err.println("chiplet demo: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        demo.run();
    }

    static ChipletDemo parse(String[] args)
    {
        double scale = DEFAULT_SCALE;
        int rounds = DEFAULT_ROUNDS;
        String master = "local[*]";
        List<Integer> queries = TpchQueries.numbers();
        Map<String, String> conf = new LinkedHashMap<>();
        boolean warmup = true;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new IllegalArgumentException("help");
            }
            if (!OPTIONS.contains(flag)) {
                throw new IllegalArgumentException("unknown option " + flag);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--scale-factor", "--scale" -> {
                    try {
                        scale = Double.parseDouble(value);
                    }
                    catch (NumberFormatException e) {
                        throw new IllegalArgumentException(flag + ": expected a positive number such as 0.1, got '" + value + "'");
                    }
                    if (!(scale > 0) || scale > 1000) {
                        throw new IllegalArgumentException(flag + ": expected a positive number up to 1000, got '" + value + "'");
                    }
                }
                case "--rounds" -> {
                    try {
                        rounds = Integer.parseInt(value);
                    }
                    catch (NumberFormatException e) {
                        rounds = -1;
                    }
                    if (rounds < 0 || rounds > 100) {
                        throw new IllegalArgumentException("--rounds: expected a whole number from 0 to 100, got '" + value + "'");
                    }
                }
                case "--master" -> master = value;
                case "--warmup" -> {
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new IllegalArgumentException("--warmup: expected true or false, got '" + value + "'");
                    }
                    warmup = Boolean.parseBoolean(value);
                }
                case "--queries" -> {
                    List<Integer> chosen = new ArrayList<>();
                    for (String part : value.split(",")) {
                        try {
                            int query = Integer.parseInt(part.trim());
                            if (query < 1 || query > TpchQueries.COUNT) {
                                throw new NumberFormatException();
                            }
                            chosen.add(query);
                        }
                        catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--queries: expected query numbers 1 to 22 separated by commas, got '" + value + "'");
                        }
                    }
                    queries = chosen;
                }
                case "--conf" -> {
                    int equals = value.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("--conf: expected KEY=VALUE, got '" + value + "'");
                    }
                    conf.put(value.substring(0, equals), value.substring(equals + 1));
                }
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        // A setting the plugin would refuse is the user's mistake here, not a reason to run without it.
        if (SparkSettings.parse(conf) instanceof SparkSettings.Problem problem) {
            throw new IllegalArgumentException("--conf: " + problem.message());
        }
        return new ChipletDemo(System.out, scale, rounds, master, queries, conf, warmup);
    }

    private void run()
    {
        PlacementSettings settings = printMachine();
        if (rounds > 0) {
            timeWithAndWithout();
        }
        if (settings != null) {
            out.println();
            out.println("What the plugin would do on the machines this demo carries (computed by the plugin's own code from each machine's "
                    + "topology; nothing below runs on them):");
            MachineShowcase showcase = new MachineShowcase(out, settings);
            BundledMachine.ALL.forEach(showcase::show);
        }
        out.println();
        out.println(NEXT_STEP);
    }

    /** The demo's last line: what a user does next with what it showed. */
    static final String NEXT_STEP = "Next: put the plugin on your own Spark job: build its jar (./mvnw -B -q -pl spark-plugin -am package -DskipTests) and add "
            + "--jars spark-plugin/target/chiplet-spark-plugin-*-all.jar --conf spark.plugins=io.chiplet.spark.ChipletPlugin; `bin/chiplet advise` "
            + "prints the settings for a cluster, and the plugin's own line at the application's end says whether placement paid (docs/spark.md, "
            + "docs/measuring.md).";

    private void timeWithAndWithout()
    {
        out.printf(Locale.ROOT, "%nTPC-H scale factor %s, %d queries, master %s: %d interleaved rounds, each running both sides (a fresh SparkContext "
                + "each, alternating which goes first)%n", scale, queries.size(), master, rounds);
        if (warmup) {
            // Whichever run came first would pay for class loading, JIT compilation and the generator's text pool.
            out.println("Warm-up (untimed): the same queries at scale factor 0.01, without the plugin ...");
            runOnce(false, 0.01);
        }
        List<Run> runs = new ArrayList<>();
        OnOffRounds.Result result;
        try {
            result = OnOffRounds.run(queries, rounds, plugin -> {
                Run run = runOnce(plugin, scale);
                runs.add(run);
                return run.seconds();
            }, ManagementFactory.getOperatingSystemMXBean()::getSystemLoadAverage, out);
        }
        catch (Exception e) {
            throw new IllegalStateException("a timed run failed: " + e.getMessage(), e);
        }
        Run with = runs.stream().filter(Run::plugin).reduce((first, second) -> second).orElseThrow();
        Run without = runs.stream().filter(run -> !run.plugin()).reduce((first, second) -> second).orElseThrow();
        printSettings(with, without);
        printTasks(with);
        printTimings(result, runs.stream().allMatch(run -> run.results().equals(runs.get(0).results())), with);
    }

    /** This machine's chiplets as the plugin reads them; the settings, or null where they are unusable. */
    private PlacementSettings printMachine()
    {
        SparkSettings.Parsed parsed = SparkSettings.parse(conf);
        if (!(parsed instanceof SparkSettings.Valid valid)) {
            out.println("Chiplets: not read, " + ((SparkSettings.Problem) parsed).message());
            return null;
        }
        PlacementSettings settings = valid.settings();
        Topology topology;
        try {
            topology = ChipletSparkPlugin.topologySource().read(settings);
        }
        catch (RuntimeException e) {
            out.println("Chiplets: not read (" + e.getMessage() + "); the plugin will switch itself off and say why");
            return settings;
        }
        machineChiplets = topology.chiplets().size();
        out.printf(Locale.ROOT, "Machine (%s): %d %s%n", topology.source(), topology.chiplets().size(), topology.chiplets().size() == 1 ? "chiplet" : "chiplets");
        for (Chiplet chiplet : topology.chiplets()) {
            out.printf(Locale.ROOT, "  chiplet %d: CPUs %s, NUMA node %d, L3 %s; %s%n", chiplet.id(), chiplet.cpus().toList(), chiplet.numaNode(),
                    chiplet.l3Bytes() == 0 ? "unknown" : (chiplet.l3Bytes() >> 20) + " MiB", basis(chiplet.basis()));
        }
        topology.unknowns().forEach(unknown -> out.println("  note: " + unknown));
        policy = String.valueOf(settings.policy());
        out.printf(Locale.ROOT, "Plugin: mode %s, policy %s%n", settings.mode().configName(), policy);
        return settings;
    }

    /** What a chiplet is on this machine, in words: the kernel's grouping it was read from. */
    private static String basis(ChipletBasis basis)
    {
        return switch (basis) {
            case NUMA -> "one NUMA node";
            case CLUSTER -> "one CPU cluster";
            case DIE -> "one die";
            case PACKAGE -> "one package";
            case VIRTUAL -> "a virtual chiplet";
            default -> "one L3 group";
        };
    }

    private Run runOnce(boolean withPlugin, double scaleFactor)
    {
        SparkSession.Builder builder = SparkSession.builder()
                .master(master)
                .appName(withPlugin ? "chiplet-demo-with-plugin" : "chiplet-demo-without-plugin")
                .config("spark.ui.enabled", "false");
        if (withPlugin) {
            builder.config("spark.plugins", ChipletSparkPlugin.ENTRY_CLASS);
        }
        conf.forEach(builder::config);
        SparkSession spark = builder.getOrCreate();
        Map<String, String> settings = new LinkedHashMap<>();
        Map<Integer, Double> seconds = new LinkedHashMap<>();
        Map<Integer, List<String>> results = new LinkedHashMap<>();
        List<Source> sources = List.of();
        try {
            for (String key : SIZED_KEYS) {
                // The values in force, Spark's defaults included.
                settings.put(key, key.equals(SparkPartitionSettings.DEFAULT_PARALLELISM)
                        ? Integer.toString(spark.sparkContext().defaultParallelism())
                        : spark.conf().get(key));
            }
            // Generated into this context's memory, untimed: only the queries are compared.
            TpchTables.register(spark, scaleFactor);

            for (int query : queries) {
                long queryStart = System.nanoTime();
                List<Row> rows = spark.sql(TpchQueries.query(query, TpchQueries.Dialect.SPARK)).collectAsList();
                seconds.put(query, (System.nanoTime() - queryStart) / 1e9);
                results.put(query, rows.stream().map(Row::toString).toList());
            }
            sources = withPlugin ? pluginSources() : List.of();
        }
        finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
        // After the stop: the plugin finishes its measurement (and its CPU share) as the application ends.
        return new Run(withPlugin, settings, seconds, results, gauges(sources));
    }

    /** The plugin's metric sources, the driver's and the executor's (local mode: the executor lives in this JVM). */
    private static List<Source> pluginSources()
    {
        return List.copyOf(CollectionConverters.asJava(SparkEnv.get().metricsSystem().getSourcesByName(METRICS_SOURCE)));
    }

    /** The plugin's task counts (summed over its sources) and the driver's measurement gauges. */
    private static Map<String, Number> gauges(List<Source> sources)
    {
        Map<String, Number> gauges = new TreeMap<>();
        for (Source source : sources) {
            source.metricRegistry().getGauges((name, metric) -> name.equals("tasks") || name.startsWith("tasks.") || name.startsWith("measure.")).forEach((name, gauge) -> {
                Object value = gauge.getValue();
                if (value instanceof Long count) {
                    gauges.merge(name, count, (a, b) -> a.longValue() + b.longValue());
                }
                else if (value instanceof Number number) {
                    gauges.put(name, number);
                }
            });
        }
        return gauges;
    }

    private void printSettings(Run with, Run without)
    {
        out.println();
        out.printf(Locale.ROOT, "%-62s %-16s %s%n", "Settings", "with plugin", "without");
        for (String key : SIZED_KEYS) {
            out.printf(Locale.ROOT, "  %-60s %-16s %s%n", key, sizeInUnits(with.settings().get(key)), sizeInUnits(without.settings().get(key)));
        }
    }

    /**
     * A byte size as Spark's own defaults print it ({@code 67108864b}) in the unit style the plugin's settings use
     * ({@code 64m}); anything else unchanged.
     */
    static String sizeInUnits(String value)
    {
        Matcher bytes = BYTES.matcher(value);
        if (!bytes.matches()) {
            return value;
        }
        long size = Long.parseLong(bytes.group(1));
        String[] units = {"k", "m", "g", "t"};
        String shown = size + "b";
        for (int unit = 0; unit < units.length && size > 0 && size % 1024 == 0; unit++) {
            size /= 1024;
            shown = size + units[unit];
        }
        return shown;
    }

    private static final Pattern BYTES = Pattern.compile("(\\d+)b");

    private void printTasks(Run with)
    {
        out.println();
        if (with.tasks("tasks") == 0 && with.gauges().keySet().stream().noneMatch(name -> name.startsWith("tasks"))) {
            out.println("Where tasks ran: the plugin reported nothing (it switched itself off; see the warning above)");
            return;
        }
        out.printf(Locale.ROOT, "Where tasks ran (plugin metrics, the last run with the plugin): %d tasks%n", with.tasks("tasks"));
        with.gauges().forEach((name, count) -> {
            if (name.startsWith("tasks.chiplet.")) {
                out.printf(Locale.ROOT, "  chiplet %s: %d tasks%n", name.substring("tasks.chiplet.".length()), count.longValue());
            }
        });
        long unplaced = with.tasks("tasks.unplaced");
        out.printf(Locale.ROOT, "  not pinned: %d %s%s%n", unplaced, unplaced == 1 ? "task" : "tasks", unplaced == 0 ? "" : ", " + unpinnedReason(policy));
    }

    /** Why the plugin left tasks where the OS schedules them, in words. */
    static String unpinnedReason(String policy)
    {
        if ("wim".equals(policy)) {
            return "run where the OS schedules them: policy wim binds no task (the no-placement baseline)";
        }
        return "run where the OS schedules them: the plugin's control arm, a seeded share of each stage's tasks left unplaced so that it can "
                + "measure what placement does (docs/measuring.md; a guard that stops placement leaves the rest unplaced too)";
    }

    /**
     * The plugin's own figures for its last run, as its end-of-application line gives them: its CPU share of the job's
     * and whether its guard kept placing, with the control share; each "not measured" with the reason where it has none.
     */
    static String pluginView(OptionalDouble cpuShare, OptionalDouble placing, OptionalDouble controlShare)
    {
        String cpu = cpuShare.isPresent()
                ? String.format(Locale.ROOT, "plugin CPU %.3f %% of the job's", 100 * cpuShare.getAsDouble())
                : "plugin CPU not measured (no executor reported its tasks' CPU time)";
        String guard;
        if (placing.isEmpty()) {
            guard = "guard and control share not reported (the plugin's measurement is off or did not start)";
        }
        else if (placing.getAsDouble() > 0 && controlShare.orElse(0) > 0) {
            guard = String.format(Locale.ROOT, "guard placing, control share %.1f %% of tasks", 100 * controlShare.getAsDouble());
        }
        else if (placing.getAsDouble() > 0) {
            guard = "guard placing, no control arm (nothing measured in place: a host of one L3 group, or measuring off; its line at the "
                    + "application's end says which)";
        }
        else {
            guard = "guard stopped placement (placed tasks were measurably slower)";
        }
        return "The plugin's own figures for its last run: " + cpu + "; " + guard + ".";
    }

    private void printTimings(OnOffRounds.Result result, boolean allSame, Run lastWith)
    {
        OnOffComparison comparison = result.comparison();
        out.println();
        out.printf(Locale.ROOT, "Query   with plugin   without   (median of %d rounds each)%n", comparison.rounds());
        for (int query : queries) {
            out.printf(Locale.ROOT, "  q%-4d %9.3f s %7.3f s%n", query, comparison.medianOn(query), comparison.medianOff(query));
        }
        out.println(allSame ? "All results identical, with and without the plugin, in every round." : "RESULTS DIFFER between the runs.");
        RatioEstimate estimate = comparison.estimate(PairedBootstrap.standard());
        out.println();
        out.printf(Locale.ROOT, "Noise on this machine: %s%s.%n", estimate.oneRound() ? "not measurable from one round"
                        : String.format(Locale.ROOT, "one query's speed-up scatters by %.1f %% from round to round", 100 * estimate.pairSpread()),
                result.peakLoad().isPresent()
                        ? String.format(Locale.ROOT, " (system load average up to %.1f on %d CPUs)", result.peakLoad().getAsDouble(), Runtime.getRuntime().availableProcessors())
                        : "");
        out.println(verdict(estimate));
        // The same kind of line (and judging rule) the plugin prints at the end of every application (docs/measuring.md),
        // for the rounds; the CPU share and guard are the plugin's own, of its last run, not the rounds'.
        out.println("As the plugin would report these rounds: " + roundsLine(comparison));
        out.println(pluginView(lastWith.gauge("measure.pluginCpuShare"), lastWith.gauge("measure.placing"), lastWith.gauge("measure.controlShare")));
        out.printf(Locale.ROOT, "(Paired geometric mean over %d queries x %d rounds, each query weighing the same; 95 %% interval from a bootstrap over "
                + "queries and rounds, %d resamples. `bin/chiplet bench --tpch-sf 1 --rounds N` measures the same at a realistic size.)%n",
                estimate.groups(), comparison.rounds(), estimate.resamples());
        if (machineChiplets == 1) {
            out.println("This machine has one chiplet (one L3 domain): placement has nothing to separate here, so the timings can show only "
                    + "the plugin's overhead. Gains need several L3 domains (AMD EPYC CCDs, Intel SNC, ARM clusters): see below.");
        }
    }

    /** The demo's rounds in core's report: the figure, interval and verdict an application's WARN line has. */
    static MeasureReport roundsReport(OnOffComparison comparison)
    {
        return MeasureReport.ofRounds(comparison, PairedBootstrap.standard(), "the demo's TPC-H queries", DESIGN, java.time.Instant.now().toString(), List.of());
    }

    /**
     * The rounds' figure as the plugin's line puts it, up to what only a plugin run has: the rounds have no CPU share
     * of their own and no guard (the "with" side placed every run), so those parts, which {@link #pluginView} gives
     * from the plugin's own run, are left out.
     */
    static String roundsLine(OnOffComparison comparison)
    {
        String line = roundsReport(comparison).summaryLine();
        int cpu = line.indexOf("; plugin CPU ");
        return cpu < 0 ? line : line.substring(0, cpu);
    }

    static final String DESIGN = "interleaved on/off rounds: each round runs every query once with the plugin and once without, in a fresh SparkContext "
            + "per side, alternating which side goes first; each query's on and off run of a round form a pair";

    /**
     * The one sentence on the ratio, saying which way it points, as a speed-up (time without / with: below 1 is slower
     * with the plugin), the direction of the plugin's own line. A ratio whose interval holds 1 is no result, and says so
     * first.
     */
    static String verdict(RatioEstimate estimate)
    {
        String direction = direction(estimate.ratio());
        if (estimate.noiseExplains()) {
            return String.format(Locale.ROOT, "No difference measurable on this machine: with the plugin %s (speed-up %.3fx, time without / with), but "
                    + "the 95 %% CI [%.3f, %.3f] holds 1.", direction, 1 / estimate.ratio(), 1 / estimate.high(), 1 / estimate.low());
        }
        if (estimate.oneRound()) {
            return String.format(Locale.ROOT, "Not measurable in one round: with the plugin %s (speed-up %.3fx, time without / with, 95 %% CI [%.3f, %.3f]), "
                    + "an interval that holds only the spread between queries, not the order the sides ran in; run --rounds 2 or more.",
                    direction, 1 / estimate.ratio(), 1 / estimate.high(), 1 / estimate.low());
        }
        return String.format(Locale.ROOT, "With the plugin these queries ran %s on this machine: speed-up %.3fx (time without / with), 95 %% CI [%.3f, %.3f].",
                direction, 1 / estimate.ratio(), 1 / estimate.high(), 1 / estimate.low());
    }

    /** {@code 16.8 % slower} for a time ratio with / without of 1.168, {@code 10.0 % faster} for 0.9 (10 % less time). */
    static String direction(double ratio)
    {
        if (Math.abs(ratio - 1) < 0.0005) {
            return "as fast as without";
        }
        return String.format(Locale.ROOT, "%.1f %% %s", 100 * Math.abs(ratio - 1), ratio > 1 ? "slower" : "faster");
    }
}
