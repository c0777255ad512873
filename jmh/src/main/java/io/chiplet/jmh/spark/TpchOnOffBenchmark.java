package io.chiplet.jmh.spark;

import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.jmh.report.ReportDocument;
import io.chiplet.jmh.tpch.OnOffReport;
import io.chiplet.jmh.tpch.TpchBenchArguments;
import io.chiplet.measure.OnOffRounds;
import io.chiplet.spark.ChipletPlugin;
import io.chiplet.spark.tpch.TpchTables;
import io.chiplet.tpch.TpchQueries;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * All 22 TPC-H queries in embedded Spark ({@code local[*]}), plugin on against plugin off, in the interleaved rounds of
 * {@link OnOffRounds} (after one untimed warm-up context, each side of a round a fresh SparkContext running every
 * query once), reported by {@link OnOffReport}. The tables are generated once into Parquet and read (and cached) by
 * every context, so generation is neither timed nor repeated. Both sides run with the partition settings the plugin
 * chose, so the comparison is of the plugin's placement and overhead, not of Spark's default of 200 shuffle partitions.
 *
 * <pre>
 * TpchOnOffBenchmark [--scale-factor 1] [--rounds 3] [--queries 1,3,...] [--root DIR] [--no-report]
 * </pre>
 * {@code bin/chiplet bench --tpch-sf SF [--rounds N]} runs this and writes its section of {@code docs/performance.md}.
 */
public final class TpchOnOffBenchmark
{
    private static final List<String> SIZED_KEYS = List.of(
            SparkPartitionSettings.SHUFFLE_PARTITIONS,
            SparkPartitionSettings.DEFAULT_PARALLELISM,
            SparkPartitionSettings.ADVISORY_PARTITION_SIZE,
            SparkPartitionSettings.SKEW_THRESHOLD);

    private TpchOnOffBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        if (System.getProperty("log4j2.configurationFile") == null) {
            // Spark's warnings and the plugin's choices, not Spark's INFO chatter.
            System.setProperty("log4j2.configurationFile", "classpath:io/chiplet/spark/demo/demo-log4j2.properties");
        }
        TpchBenchArguments arguments;
        try {
            arguments = TpchBenchArguments.parse(args, "--tpch-sf");
            arguments.requireReportTarget();
            if (arguments.forks() != 1) {
                // Every side of every round is a fresh SparkContext already; one JVM is what a local Spark has.
                throw new IllegalArgumentException("--forks: the Spark benchmark starts a fresh SparkContext for every side of every round; expected 1, got "
                        + arguments.forks());
            }
        }
        catch (IllegalArgumentException e) {
            System.err.println("chiplet bench --tpch-sf: " + e.getMessage());
            System.exit(2);
            return;
        }
        Instant start = Instant.now();
        Path data = arguments.root().resolve("jmh/target/tpch-sf" + arguments.scaleFactor());
        generateOnce(data, arguments);

        // Untimed: whichever side ran first in a cold JVM would pay for class loading and JIT compilation. With the
        // plugin, so the plugin's classes warm up too, and so its partition settings are known before any side runs.
        System.out.println("warm-up (untimed), plugin on ...");
        Map<String, String> chosen = new LinkedHashMap<>(runContext(true, data, arguments.queries(), Map.of()).settings());
        OnOffRounds.Result result = OnOffRounds.run(arguments.queries(), arguments.rounds(),
                plugin -> runContext(plugin, data, arguments.queries(), plugin ? Map.of() : chosen).seconds(),
                ManagementFactory.getOperatingSystemMXBean()::getSystemLoadAverage, System.out);

        OnOffReport onOff = report(arguments, chosen, start, Duration.between(start, Instant.now()), Runtime.version().toString(), result.peakLoad(),
                Runtime.getRuntime().availableProcessors());
        String body = onOff.render(result.comparison());
        System.out.println();
        System.out.println(body);
        // The plugins' kind of report, judged by the same rule: its line, and its JSON and HTML beside the benchmark's data.
        onOff.writeMeasureReport(result.comparison(), arguments.root().resolve("jmh/target/chiplet-bench"), sectionName(arguments), System.out);
        if (arguments.report()) {
            Path report = arguments.root().resolve("docs/performance.md");
            ReportDocument.writeSection(report, sectionName(arguments), body);
            System.out.println("chiplet bench: wrote " + report + " (section \"" + sectionName(arguments) + "\")");
        }
    }

    static String sectionName(TpchBenchArguments arguments)
    {
        return "Spark TPC-H SF " + arguments.scale() + ": plugin on vs off";
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

    private static void generateOnce(Path data, TpchBenchArguments arguments)
    {
        if (Files.isRegularFile(data.resolve("_COMPLETE"))) {
            return;
        }
        System.out.printf(Locale.ROOT, "generating TPC-H SF %s into %s (once) ...%n", arguments.scale(), data);
        SparkSession spark = session(false, Map.of());
        try {
            int parts = spark.sparkContext().defaultParallelism();
            for (TpchTable<?> table : TpchTable.getTables()) {
                TpchTables.generate(spark, table, arguments.scaleFactor(), parts).write().mode(SaveMode.Overwrite).parquet(data.resolve(table.getTableName()).toString());
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
                settings.put(key, key.equals(SparkPartitionSettings.DEFAULT_PARALLELISM)
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
                spark.sql(TpchQueries.query(query, TpchQueries.Dialect.SPARK)).collectAsList();
                seconds.put(query, (System.nanoTime() - begin) / 1e9);
            }
            return new Timed(settings, seconds);
        }
        finally {
            stop(spark);
        }
    }

    /** How the run is described in its section: the partition settings both sides used. */
    static OnOffReport report(TpchBenchArguments arguments, Map<String, String> settings, Instant start, Duration took, String jdk, OptionalDouble peakLoad, int cpus)
    {
        String shared = "Both sides use the partition settings the plugin chose ("
                + String.join(", ", settings.entrySet().stream().map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").toList())
                + "), so the ratio measures the plugin's placement and per-task overhead.";
        return new OnOffReport(sectionName(arguments), "bin/chiplet bench --tpch-sf %s --rounds %d".formatted(arguments.scale(), arguments.rounds()),
                "after an untimed warm-up, a fresh `local[*]` SparkContext per side and round, alternating which side goes first", shared, start, took, jdk, peakLoad, cpus);
    }
}
