package io.chiplet.jmh.spark;

import io.chiplet.jmh.report.PerformanceReport;
import io.chiplet.spark.ChipletPlugin;
import io.chiplet.spark.SparkPartitionAdvice;
import io.chiplet.spark.tpch.TpchQueries;
import io.chiplet.spark.tpch.TpchTables;
import io.trino.tpch.TpchTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * All 22 TPC-H queries in embedded Spark ({@code local[*]}), plugin on against plugin off, interleaved: after one
 * untimed warm-up context, round after round, each a fresh SparkContext with the plugin and one without (alternating
 * which goes first), every query run once per context. Each query's time is the median over rounds; the figure is the geometric mean of the per-query
 * ratios on/off. The tables are generated once into Parquet and read (and cached) by every context, so generation
 * is neither timed nor repeated. Both sides run with the partition settings the plugin chose, so the comparison is
 * of the plugin's placement and overhead, not of Spark's default of 200 shuffle partitions.
 *
 * <pre>
 * TpchOnOffBenchmark [--scale-factor 1] [--rounds 3] [--queries 1,3,...] [--root DIR] [--no-report]
 * </pre>
 * {@code bin/chiplet bench --tpch-sf SF [--rounds N]} runs this and writes its section of {@code docs/performance.md}.
 */
public final class TpchOnOffBenchmark
{
    private static final List<String> SIZED_KEYS = List.of(
            SparkPartitionAdvice.SHUFFLE_PARTITIONS,
            SparkPartitionAdvice.DEFAULT_PARALLELISM,
            SparkPartitionAdvice.ADVISORY_PARTITION_SIZE,
            SparkPartitionAdvice.SKEW_THRESHOLD);

    record Arguments(double scaleFactor, int rounds, List<Integer> queries, Path root, boolean report)
    {
        static Arguments parse(String[] args)
        {
            double scaleFactor = 1;
            int rounds = 3;
            List<Integer> queries = TpchQueries.numbers();
            Path root = Path.of("");
            boolean report = true;
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--no-report")) {
                    report = false;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(flag + " needs a value");
                }
                String value = args[++i];
                try {
                    switch (flag) {
                        case "--scale-factor", "--tpch-sf" -> scaleFactor = Double.parseDouble(value);
                        case "--rounds" -> rounds = Integer.parseInt(value);
                        case "--queries" -> queries = Arrays.stream(value.split(",")).map(String::trim).map(Integer::parseInt).toList();
                        case "--root" -> root = Path.of(value);
                        default -> throw new IllegalArgumentException("unknown option " + flag
                                + "; expected --scale-factor SF, --rounds N, --queries 1,3,..., --root DIR, --no-report");
                    }
                }
                catch (NumberFormatException e) {
                    throw new IllegalArgumentException(flag + ": not a number: '" + value + "'");
                }
            }
            if (!(scaleFactor > 0) || scaleFactor > 100) {
                throw new IllegalArgumentException("--scale-factor: expected a positive number up to 100, got " + scaleFactor);
            }
            if (rounds < 1) {
                throw new IllegalArgumentException("--rounds: expected at least 1, got " + rounds);
            }
            for (int query : queries) {
                if (query < 1 || query > TpchQueries.COUNT) {
                    throw new IllegalArgumentException("--queries: expected query numbers 1 to 22, got " + query);
                }
            }
            return new Arguments(scaleFactor, rounds, List.copyOf(queries), root, report);
        }
    }

    private TpchOnOffBenchmark() {}

    public static void main(String[] args)
    {
        if (System.getProperty("log4j2.configurationFile") == null) {
            // Spark's warnings and the plugin's choices, not Spark's INFO chatter.
            System.setProperty("log4j2.configurationFile", "classpath:io/chiplet/spark/demo/demo-log4j2.properties");
        }
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println("chiplet bench --tpch-sf: " + e.getMessage());
            System.exit(2);
            return;
        }
        Instant start = Instant.now();
        Path data = arguments.root().resolve("jmh/target/tpch-sf" + arguments.scaleFactor());
        generateOnce(data, arguments.scaleFactor());

        // Untimed: whichever side ran first in a cold JVM would pay for class loading and JIT compilation. With the
        // plugin, so the plugin's classes warm up too, and so its partition settings are known before any side runs.
        System.out.println("warm-up (untimed), plugin on ...");
        Map<String, String> chosen = new LinkedHashMap<>(runContext(true, data, arguments.queries(), Map.of()).settings());
        List<Map<Integer, Double>> on = new ArrayList<>();
        List<Map<Integer, Double>> off = new ArrayList<>();
        double peakLoad = -1;
        for (int round = 0; round < arguments.rounds(); round++) {
            boolean onFirst = round % 2 == 0;
            for (boolean plugin : onFirst ? List.of(true, false) : List.of(false, true)) {
                System.out.printf(Locale.ROOT, "round %d/%d, plugin %s ...%n", round + 1, arguments.rounds(), plugin ? "on" : "off");
                Timed timed = runContext(plugin, data, arguments.queries(), plugin ? Map.of() : chosen);
                if (plugin) {
                    on.add(timed.seconds());
                }
                else {
                    off.add(timed.seconds());
                }
                peakLoad = Math.max(peakLoad, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            }
        }

        String body = render(arguments, chosen, on, off, start, Duration.between(start, Instant.now()), peakLoad, Runtime.getRuntime().availableProcessors());
        System.out.println();
        System.out.println(body);
        if (arguments.report()) {
            Path report = arguments.root().resolve("docs/performance.md");
            try {
                Optional<String> existing = Files.exists(report) ? Optional.of(Files.readString(report)) : Optional.empty();
                Files.createDirectories(report.toAbsolutePath().getParent());
                Files.writeString(report, PerformanceReport.merge(existing, sectionName(arguments.scaleFactor()), body));
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot write " + report, e);
            }
            System.out.println("chiplet bench: wrote " + report + " (section \"" + sectionName(arguments.scaleFactor()) + "\")");
        }
    }

    static String sectionName(double scaleFactor)
    {
        return "Spark TPC-H SF " + scale(scaleFactor) + ": plugin on vs off";
    }

    private record Timed(Map<String, String> settings, Map<Integer, Double> seconds) {}

    private static SparkSession session(boolean plugin, Map<String, String> conf)
    {
        SparkSession.Builder builder = SparkSession.builder()
                .master("local[*]")
                .appName(plugin ? "chiplet-tpch-on" : "chiplet-tpch-off")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1");
        if (plugin) {
            builder.config("spark.plugins", ChipletPlugin.class.getName());
        }
        conf.forEach(builder::config);
        return builder.getOrCreate();
    }

    private static void stop(SparkSession spark)
    {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }

    private static void generateOnce(Path data, double scaleFactor)
    {
        if (Files.isRegularFile(data.resolve("_COMPLETE"))) {
            return;
        }
        System.out.printf(Locale.ROOT, "generating TPC-H SF %s into %s (once) ...%n", scale(scaleFactor), data);
        SparkSession spark = session(false, Map.of());
        try {
            int parts = spark.sparkContext().defaultParallelism();
            for (TpchTable<?> table : TpchTable.getTables()) {
                TpchTables.generate(spark, table, scaleFactor, parts).write().mode(SaveMode.Overwrite).parquet(data.resolve(table.getTableName()).toString());
            }
            Files.writeString(data.resolve("_COMPLETE"), Instant.now().toString());
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write " + data, e);
        }
        finally {
            stop(spark);
        }
    }

    private static Timed runContext(boolean plugin, Path data, List<Integer> queries, Map<String, String> conf)
    {
        SparkSession spark = session(plugin, conf);
        try {
            Map<String, String> settings = new LinkedHashMap<>();
            for (String key : SIZED_KEYS) {
                settings.put(key, key.equals(SparkPartitionAdvice.DEFAULT_PARALLELISM)
                        ? Integer.toString(spark.sparkContext().defaultParallelism())
                        : spark.conf().get(key));
            }
            for (TpchTable<?> table : TpchTable.getTables()) {
                Dataset<Row> rows = spark.read().parquet(data.resolve(table.getTableName()).toString()).cache();
                rows.count();
                rows.createOrReplaceTempView(table.getTableName());
            }
            Map<Integer, Double> seconds = new LinkedHashMap<>();
            for (int query : queries) {
                long begin = System.nanoTime();
                spark.sql(TpchQueries.query(query)).collectAsList();
                seconds.put(query, (System.nanoTime() - begin) / 1e9);
            }
            return new Timed(settings, seconds);
        }
        finally {
            stop(spark);
        }
    }

    /** The section's markdown: per-query medians, ratios and their geometric mean. Pure. */
    static String render(Arguments arguments, Map<String, String> settings, List<Map<Integer, Double>> on, List<Map<Integer, Double>> off,
            Instant start, Duration took, double peakLoad, int cpus)
    {
        StringBuilder md = new StringBuilder();
        md.append("## ").append(sectionName(arguments.scaleFactor())).append("\n\n");
        md.append(String.format(Locale.ROOT, "Measured %s: `bin/chiplet bench --tpch-sf %s --rounds %d`, %d queries, %d interleaved rounds "
                        + "(after an untimed warm-up, a fresh `local[*]` SparkContext per side and round, alternating which side goes first), JDK %s, %d s%s.%n%n",
                start.truncatedTo(ChronoUnit.SECONDS), scale(arguments.scaleFactor()), arguments.rounds(), arguments.queries().size(), arguments.rounds(),
                Runtime.version(), took.toSeconds(),
                peakLoad < 0 ? "" : String.format(Locale.ROOT, ", system load average up to %.1f on %d CPUs", peakLoad, cpus)));
        if (peakLoad > 2.0 * cpus) {
            // Spark keeps every CPU busy itself; more than twice that means other processes ran too.
            md.append("**Other processes competed for the CPUs during this run, so the ratios below are mostly noise.**\n\n");
        }
        md.append("Both sides use the partition settings the plugin chose (");
        md.append(String.join(", ", settings.entrySet().stream().map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").toList()));
        md.append("), so the ratio measures the plugin's placement and per-task overhead. Times are each query's median over the rounds.\n\n");
        md.append("| Query | on (s) | off (s) | on/off |\n|---|---:|---:|---:|\n");
        double logSum = 0;
        for (int query : arguments.queries()) {
            double a = median(on, query);
            double b = median(off, query);
            logSum += Math.log(a / b);
            md.append(String.format(Locale.ROOT, "| q%d | %.3f | %.3f | %.3f |%n", query, a, b, a / b));
        }
        double geomean = Math.exp(logSum / arguments.queries().size());
        md.append(String.format(Locale.ROOT, "%n**Geometric mean of the on/off ratios: %.3f** (the target on a single-L3 machine, where placement "
                + "cannot help and only the overhead shows: at most 1.02).%n", geomean));
        return md.toString();
    }

    private static double median(List<Map<Integer, Double>> runs, int query)
    {
        double[] values = runs.stream().mapToDouble(run -> run.get(query)).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private static String scale(double scaleFactor)
    {
        return scaleFactor == Math.rint(scaleFactor) ? Long.toString((long) scaleFactor) : Double.toString(scaleFactor);
    }
}
