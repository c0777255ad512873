package io.chiplet.spark.demo;

import io.chiplet.placement.SparkPartitionSettings;
import io.chiplet.spark.settings.ChipletSettings;
import io.chiplet.spark.ChipletSparkPlugin;
import io.chiplet.spark.tpch.TpchQueries;
import io.chiplet.spark.tpch.TpchTables;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;
import org.apache.spark.SparkEnv;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The README's first command: TPC-H in embedded Spark, with the chiplet plugin and then without (each run in a
 * fresh SparkContext), printing the machine's chiplets, where the tasks ran, the settings the plugin chose and
 * both timings. The JVM needs Spark's module options (see {@code docs/spark.md}).
 *
 * <pre>ChipletDemo [--scale-factor 0.05] [--master local[*]] [--queries 1,6,13] [--warmup true] [--conf spark.chiplet.KEY=VALUE]...</pre>
 *
 * {@code bin/chiplet demo} builds the jars and starts this with Spark's module options.
 */
public final class ChipletDemo
{
    // Small enough for all 22 queries, twice, in a minute or two on a two-core machine.
    private static final double DEFAULT_SCALE = 0.01;
    private static final String USAGE = "usage: chiplet demo [--scale-factor SF (default " + DEFAULT_SCALE + ")] [--queries 1,3,... (default all 22)] "
            + "[--master local[*]] [--warmup true|false] [--conf spark.KEY=VALUE]...";
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
    // Chiplets of the machine as the plugin reads it; 0 when it could not be read.
    private int machineChiplets;

    private record Run(Map<String, String> settings, double generationSeconds, Map<Integer, Double> seconds, Map<Integer, List<String>> results, Map<String, Long> tasks) {}

    private ChipletDemo(PrintStream out, double scale, String master, List<Integer> queries, Map<String, String> conf, boolean warmup)
    {
        this.warmup = warmup;
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

    private static ChipletDemo parse(String[] args)
    {
        double scale = DEFAULT_SCALE;
        String master = "local[*]";
        List<Integer> queries = TpchQueries.numbers();
        Map<String, String> conf = new LinkedHashMap<>();
        boolean warmup = true;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                throw new IllegalArgumentException("help");
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
        return new ChipletDemo(System.out, scale, master, queries, conf, warmup);
    }

    private void run()
    {
        printMachine();
        out.printf(Locale.ROOT, "%nTPC-H scale factor %s, %d queries, master %s%n", scale, queries.size(), master);
        if (warmup) {
            // Whichever run came first would pay for class loading, JIT compilation and the generator's text pool.
            out.println("Warm-up (untimed): the same queries at scale factor 0.01, without the plugin ...");
            runOnce(false, 0.01, false);
        }
        out.println("Run 1: with the chiplet plugin ...");
        Run with = runOnce(true, scale, true);
        out.println("Run 2: without it ...");
        Run without = runOnce(false, scale, true);
        printSettings(with, without);
        printTasks(with);
        printTimings(with, without);
    }

    private void printMachine()
    {
        ChipletSettings.Parsed parsed = ChipletSettings.parse(conf);
        if (!(parsed instanceof ChipletSettings.Valid valid)) {
            out.println("Chiplets: not read, " + ((ChipletSettings.Problem) parsed).message());
            return;
        }
        ChipletSettings settings = valid.settings();
        Topology topology;
        try {
            topology = ChipletSparkPlugin.topologySource().read(settings);
        }
        catch (RuntimeException e) {
            out.println("Chiplets: not read (" + e.getMessage() + "); the plugin will switch itself off and say why");
            return;
        }
        machineChiplets = topology.chiplets().size();
        out.printf(Locale.ROOT, "Machine (%s): %d chiplets%n", topology.source(), topology.chiplets().size());
        for (Chiplet chiplet : topology.chiplets()) {
            out.printf(Locale.ROOT, "  chiplet %d: CPUs %s, NUMA node %d, L3 %s (%s)%n", chiplet.id(), chiplet.cpus().toList(), chiplet.numaNode(),
                    chiplet.l3Bytes() == 0 ? "unknown" : (chiplet.l3Bytes() >> 20) + " MiB", chiplet.basis().jsonName());
        }
        topology.unknowns().forEach(unknown -> out.println("  note: " + unknown));
        out.printf(Locale.ROOT, "Plugin: mode %s, policy %s%n", settings.mode().configName(), settings.policy());
    }

    private Run runOnce(boolean withPlugin, double scaleFactor, boolean print)
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
        try {
            Map<String, String> settings = new LinkedHashMap<>();
            for (String key : SIZED_KEYS) {
                // The values in force, Spark's defaults included.
                settings.put(key, key.equals(SparkPartitionSettings.DEFAULT_PARALLELISM)
                        ? Integer.toString(spark.sparkContext().defaultParallelism())
                        : spark.conf().get(key));
            }
            long start = System.nanoTime();
            TpchTables.register(spark, scaleFactor);
            double generation = (System.nanoTime() - start) / 1e9;

            Map<Integer, Double> seconds = new LinkedHashMap<>();
            Map<Integer, List<String>> results = new LinkedHashMap<>();
            for (int query : queries) {
                long queryStart = System.nanoTime();
                List<Row> rows = spark.sql(TpchQueries.query(query)).collectAsList();
                seconds.put(query, (System.nanoTime() - queryStart) / 1e9);
                results.put(query, rows.stream().map(Row::toString).toList());
                if (print) {
                    out.printf(Locale.ROOT, "  q%-2d %8.2f s  %d rows%n", query, seconds.get(query), rows.size());
                }
            }
            return new Run(settings, generation, seconds, results, withPlugin ? tasksPerChiplet() : Map.of());
        }
        finally {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
    }

    /** The plugin's gauges, read from Spark's metrics system (local mode: the executor lives in this JVM). */
    private static Map<String, Long> tasksPerChiplet()
    {
        Map<String, Long> tasks = new TreeMap<>();
        for (Source source : CollectionConverters.asJava(SparkEnv.get().metricsSystem().getSourcesByName(METRICS_SOURCE))) {
            source.metricRegistry().getGauges((name, metric) -> name.equals("tasks") || name.startsWith("tasks.")).forEach((name, gauge) -> {
                if (gauge.getValue() instanceof Long count) {
                    tasks.merge(name, count, Long::sum);
                }
            });
        }
        return tasks;
    }

    private void printSettings(Run with, Run without)
    {
        out.println();
        out.printf(Locale.ROOT, "%-62s %-16s %s%n", "Settings", "with plugin", "without");
        for (String key : SIZED_KEYS) {
            out.printf(Locale.ROOT, "  %-60s %-16s %s%n", key, with.settings().get(key), without.settings().get(key));
        }
    }

    private void printTasks(Run with)
    {
        out.println();
        if (with.tasks().isEmpty()) {
            out.println("Where tasks ran: the plugin reported nothing (it switched itself off; see the warning above)");
            return;
        }
        out.printf(Locale.ROOT, "Where tasks ran (plugin metrics): %d tasks%n", with.tasks().getOrDefault("tasks", 0L));
        with.tasks().forEach((name, count) -> {
            if (name.startsWith("tasks.chiplet.")) {
                out.printf(Locale.ROOT, "  chiplet %s: %d tasks%n", name.substring("tasks.chiplet.".length()), count);
            }
        });
        out.printf(Locale.ROOT, "  not pinned (left where the OS schedules them): %d tasks%n", with.tasks().getOrDefault("tasks.unplaced", 0L));
    }

    private void printTimings(Run with, Run without)
    {
        out.println();
        out.println("Query   with plugin   without   ratio   same result");
        double logSum = 0;
        double totalWith = 0;
        double totalWithout = 0;
        boolean allSame = true;
        for (int query : queries) {
            double a = with.seconds().get(query);
            double b = without.seconds().get(query);
            boolean same = with.results().get(query).equals(without.results().get(query));
            allSame &= same;
            logSum += Math.log(a / b);
            totalWith += a;
            totalWithout += b;
            out.printf(Locale.ROOT, "  q%-4d %9.2f s %7.2f s %7.3f   %s%n", query, a, b, a / b, same ? "yes" : "NO");
        }
        out.printf(Locale.ROOT, "  total %9.2f s %7.2f s %7.3f%n", totalWith, totalWithout, totalWith / totalWithout);
        out.printf(Locale.ROOT, "  geometric mean ratio (with / without): %.3f%n", Math.exp(logSum / queries.size()));
        out.printf(Locale.ROOT, "  data generation: %.1f s with, %.1f s without (not in the query times)%n", with.generationSeconds(), without.generationSeconds());
        out.println(allSame ? "All results identical." : "RESULTS DIFFER between the runs.");
        out.println();
        out.println("Reading the timings: each query ran once per setting, so differences of a few percent are noise, more so on a busy "
                + "machine; `bin/chiplet bench --tpch-sf 1` runs all 22 queries interleaved and repeated.");
        if (machineChiplets == 1) {
            out.println("This machine has one chiplet (one L3 domain): placement has nothing to separate here, so the ratio shows "
                    + "only the plugin's overhead. Gains need several L3 domains (AMD EPYC CCDs, Intel SNC, ARM clusters).");
        }
    }
}
