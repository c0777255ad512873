package io.chiplet.it;

import io.chiplet.it.SparkSubmit.Cell;
import io.chiplet.it.SparkSubmit.Result;
import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin in Spark as users run it: {@code spark-submit} of a pip-installed pyspark on a chosen JDK
 * ({@link Cell}, {@code -Dchiplet.it.sparkCells=4.2.1@25,...}), the shaded jar passed only with {@code --jars},
 * on the snapshot that presents this machine's two CPUs as two chiplets ({@code local[2]} on every Spark release and JDK
 * is {@link SparkReleaseMatrixTest}'s). Every job's answer is compared with the
 * same job without the plugin; placement is read from {@code /proc/thread-self/status} inside the tasks.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class SparkSubmitTest
{
    private static final int PARTITIONS = 8;

    static List<Cell> cells()
    {
        return Cell.configured();
    }

    /**
     * Separate executor JVMs, the plugin shipped only with {@code --jars} (so on the executors it is on no class
     * path until Spark fetches the user's jars): the job completes, both executors stay alive, the answer is the
     * plugin-off one, and the two executors, sharing one host in task mode, run their task threads on different
     * chiplets.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void localClusterWithJarsOnlyCompletesAndExecutorsShareTheHostWithoutSharingChiplets(Cell cell, @TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        String master = "local-cluster[2,1,1024]";

        Result without = probe(cell, Files.createDirectories(temp.resolve("off")), master, Map.of(), false);
        Result with = probe(cell, Files.createDirectories(temp.resolve("on")), master, pluginConf(snapshot, temp), true);

        assertThat(with.succeeded()).as(with.describe()).isTrue();
        assertThat(with.executorLogs()).as(with.describe()).hasSize(2).allSatisfy((path, log) -> assertThat(log)
                .doesNotContain("ClassNotFoundException")
                .doesNotContain("Exiting executor")
                .doesNotContain("Chiplet plugin disabled")
                .contains("Chiplet plugin on executor"));
        assertThat(with.probeLines("result")).singleElement().satisfies(result -> assertThat(result.get("executors")).isEqualTo("2"));
        assertThat(checksum(with)).isEqualTo(checksum(without));

        // Task mode: each executor's task threads on one chiplet, the two executors on different ones.
        Map<String, Set<String>> cpusByExecutor = cpusByExecutor(with);
        assertThat(cpusByExecutor).as(with.describe()).hasSize(2);
        assertThat(cpusByExecutor.values()).allSatisfy(cpus -> assertThat(cpus).hasSize(1).isSubsetOf("0", "1"));
        assertThat(cpusByExecutor.values().stream().flatMap(Set::stream).collect(Collectors.toSet())).containsExactlyInAnyOrder("0", "1");
        // Without the plugin: both executors, nothing pinned.
        assertThat(cpusByExecutor(without)).as(without.describe()).hasSize(2)
                .allSatisfy((executor, cpus) -> assertThat(cpus).containsExactly(liveCpus));
    }

    /**
     * {@code spark.chiplet.mode=auto} with two 1-core executors on the two-chiplet host: each executor's cores fit one
     * chiplet of a shared host, so each takes a chiplet for its whole process (executor mode): every task thread of
     * one executor on one chiplet, of the other on the other, and the answer is the one computed without Spark.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void autoModeGivesEachSmallExecutorAChipletOfItsOwn(Cell cell, @TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Map<String, String> conf = new java.util.HashMap<>(pluginConf(snapshot, temp));
        conf.put("spark.chiplet.mode", "auto");
        Result with = probe(cell, Files.createDirectories(temp.resolve("on")), "local-cluster[2,1,1024]", conf, true);

        assertThat(checksum(with)).isEqualTo(Long.toString(io.chiplet.it.probe.Probe.expectedChecksum(PARTITIONS)));
        Map<String, Set<String>> cpusByExecutor = cpusByExecutor(with);
        assertThat(cpusByExecutor).as(with.describe()).hasSize(2);
        assertThat(cpusByExecutor.values()).allSatisfy(cpus -> assertThat(cpus).hasSize(1).isSubsetOf("0", "1"));
        assertThat(cpusByExecutor.values().stream().flatMap(Set::stream).collect(Collectors.toSet())).containsExactlyInAnyOrder("0", "1");
        assertThat(with.executorLogs()).as(with.describe()).hasSize(2).allSatisfy((path, log) -> assertThat(log)
                .contains("executor mode (auto)", "process bound to leased chiplet"));
    }

    /**
     * PySpark on separate executor JVMs: each Python worker, for each task, runs on the chiplet of the JVM task
     * thread it serves (the plugin's task property, checked against the worker's own mask from /proc), each
     * executor's workers on that executor's chiplet, the daemons on their executor's whole mask; without the
     * plugin nothing moves; the answers are equal.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void pysparkWorkersRunOnTheChipletOfTheTaskTheyServe(Cell cell, @TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Path script = temp.resolve("pyspark_probe.py");
        try (var in = SparkSubmitTest.class.getResourceAsStream("/pyspark_probe.py")) {
            Files.copy(in, script);
        }
        String master = "local-cluster[2,1,1024]";
        Result without = SparkSubmit.of(cell, Files.createDirectories(temp.resolve("off"))).master(master)
                .runPython(script, "16", "2");
        Result with = SparkSubmit.of(cell, Files.createDirectories(temp.resolve("on"))).master(master).conf(pluginConf(snapshot, temp))
                .jars(ProbeJar.pluginJar()).runPython(script, "16", "2");
        assertThat(without.succeeded()).as(without.describe()).isTrue();
        assertThat(with.succeeded()).as(with.describe()).isTrue();

        List<Map<String, String>> tasks = with.probeLines("task");
        assertThat(tasks).as(with.describe()).hasSize(16).allSatisfy(task -> {
            assertThat(task.get("cpus")).isIn("0", "1");
            // The worker is where its JVM task thread is.
            assertThat(task.get("cpus")).isEqualTo(task.get("property"));
            assertThat(task.get("affinity")).isEqualTo(task.get("cpus"));
            // The daemon keeps its executor's whole mask, not the first task thread's.
            assertThat(task.get("daemon")).isEqualTo(liveCpus);
        });
        Map<String, Set<String>> cpusByExecutorJvm = new TreeMap<>();
        tasks.forEach(task -> cpusByExecutorJvm.computeIfAbsent(task.get("jvm"), jvm -> new TreeSet<>()).add(task.get("cpus")));
        assertThat(cpusByExecutorJvm).as(with.describe()).hasSize(2);
        assertThat(cpusByExecutorJvm.values()).allSatisfy(cpus -> assertThat(cpus).hasSize(1));
        assertThat(cpusByExecutorJvm.values().stream().flatMap(Set::stream).collect(Collectors.toSet())).containsExactlyInAnyOrder("0", "1");

        assertThat(without.probeLines("task")).as(without.describe()).hasSize(16).allSatisfy(task -> {
            assertThat(task.get("cpus")).isEqualTo(liveCpus);
            assertThat(task.get("property")).isEqualTo("none");
        });
        assertThat(checksum(with)).isEqualTo(checksum(without));
        // Spark 4.x logs its daemon-module line for every Python task once the module is set (8 per executor here):
        // with the plugin each executor's log (Spark's default, INFO) holds it once.
        assertThat(with.executorLogs()).as(with.describe()).hasSize(2).allSatisfy((path, log) -> assertThat(
                log.split("Python daemon module in PySpark is set to \\[chiplet_pyspark_daemon\\]", -1).length - 1).as(path.toString()).isEqualTo(1));
    }

    /**
     * Where operators look: the driver's Prometheus servlet of a running local-cluster application serves the
     * plugin's gauges, with every executor's task counts; each executor says what it got in one WARN line.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void prometheusServletServesThePluginsGaugesAndEachExecutorWarnsOnce(Cell cell, @TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Path hold = temp.resolve("release");
        SparkSubmit submit = SparkSubmit.of(cell, Files.createDirectories(temp.resolve("on")))
                .master("local-cluster[2,1,1024]")
                .conf(pluginConf(snapshot, temp))
                .conf(Map.of(
                        "spark.ui.enabled", "true",
                        "spark.ui.port", "0",
                        "spark.ui.prometheus.enabled", "true",
                        "spark.metrics.conf.*.sink.prometheusServlet.class", "org.apache.spark.metrics.sink.PrometheusServlet",
                        "spark.metrics.conf.*.sink.prometheusServlet.path", "/metrics/prometheus"))
                // What spark-shell and the pyspark shell show: WARN and above.
                .rootLogLevel("warn")
                .jars(ProbeJar.pluginJar());
        String scraped;
        String executorsEndpoint;
        Result result;
        try (SparkSubmit.Running running = submit.startJava(ProbeJar.get(), ProbeJar.mainClass(), Integer.toString(PARTITIONS), "2", hold.toString())) {
            java.util.Optional<String> held = running.awaitLine("CHIPLET-PROBE holding");
            if (held.isEmpty()) {
                throw new AssertionError("the probe never held: " + running.finish().describe());
            }
            String holding = held.get();
            String ui = holding.substring(holding.indexOf("ui=") + 3).strip();
            HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            Pattern tasks = Pattern.compile("ChipletPlugin_cluster_tasks_Value\\{type=\"gauges\"} (\\d+)");
            do {
                scraped = get(http, ui + "/metrics/prometheus");
                Matcher counted = tasks.matcher(scraped);
                // Executors report every few seconds: wait until all tasks, and both chiplets' gauges, have arrived.
                if (counted.find() && Long.parseLong(counted.group(1)) == PARTITIONS
                        && scraped.contains("ChipletPlugin_cluster_tasks_chiplet_0_Value") && scraped.contains("ChipletPlugin_cluster_tasks_chiplet_1_Value")) {
                    break;
                }
                Thread.sleep(500);
            }
            while (System.nanoTime() < deadline);
            executorsEndpoint = get(http, ui + "/metrics/executors/prometheus");
            Files.writeString(hold, "done");
            result = running.finish();
        }
        assertThat(result.succeeded()).as(result.describe()).isTrue();
        assertThat(scraped).as("driver /metrics/prometheus").containsPattern("ChipletPlugin_cluster_tasks_Value\\{type=\"gauges\"} " + PARTITIONS + "\\b")
                .containsPattern("ChipletPlugin_cluster_executors_Value\\{type=\"gauges\"} 2\\b")
                .containsPattern("ChipletPlugin_cluster_executors_sharingHost_Value\\{type=\"gauges\"} 2\\b")
                .containsPattern("ChipletPlugin_cluster_tasks_unplaced_Value\\{type=\"gauges\"} 0\\b")
                .containsPattern("ChipletPlugin_cluster_tasks_chiplet_0_Value\\{type=\"gauges\"} [1-9]")
                .containsPattern("ChipletPlugin_cluster_tasks_chiplet_1_Value\\{type=\"gauges\"} [1-9]");
        // Spark's own executor metrics, served beside them (a fixed set: no plugin can add to it).
        assertThat(executorsEndpoint).contains("metrics_executor_");
        // One WARN line per executor says what the plugin did, visible at WARN; nothing else of ours at WARN.
        assertThat(result.executorLogs()).hasSize(2).allSatisfy((path, log) -> {
            // Log records only (a killed executor's stderr copy may end with a fragment of an earlier line).
            List<String> ours = log.lines().filter(line -> line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} [A-Z]+ .*") && line.toLowerCase(java.util.Locale.ROOT).contains("chiplet")).toList();
            assertThat(ours).as(path).singleElement().satisfies(line -> assertThat(line)
                    .containsPattern("WARN ChipletExecutorPlugin: Chiplet plugin on executor [01]: task mode, 1 task slot for 1 core on chiplets \\[[01]] \\(CPUs [01]\\)")
                    .contains("leased chiplet"));
        });
    }

    private static String get(HttpClient http, String url)
            throws Exception
    {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", url).isEqualTo(200);
        return response.body();
    }

    static Map<String, String> pluginConf(Path snapshot, Path temp)
    {
        return Map.of(
                "spark.plugins", Spark.PLUGIN,
                // These tests check that every task is placed: no control tasks (MeasureInPlaceTest has those).
                "spark.chiplet.measure.enabled", "false",
                "spark.chiplet.fsRoot", snapshot.toString(),
                "spark.chiplet.leaseDir", temp.resolve("leases").toString());
    }

    static Result probe(Cell cell, Path directory, String master, Map<String, String> conf, boolean withPlugin)
            throws Exception
    {
        SparkSubmit submit = SparkSubmit.of(cell, directory).master(master).conf(conf);
        if (withPlugin) {
            submit.jars(ProbeJar.pluginJar());
        }
        int executors = master.startsWith("local-cluster") ? 2 : 0;
        Result result = submit.runJava(ProbeJar.get(), ProbeJar.mainClass(), Integer.toString(PARTITIONS), Integer.toString(executors));
        assertThat(result.succeeded()).as("%s, plugin %s: %s", master, withPlugin ? "on" : "off", result.describe()).isTrue();
        return result;
    }

    static String checksum(Result result)
    {
        assertThat(result.probeLines("result")).as(result.describe()).hasSize(1);
        return result.probeLines("result").getFirst().get("checksum");
    }

    static Map<String, Set<String>> cpusByExecutor(Result result)
    {
        Map<String, Set<String>> byExecutor = new TreeMap<>();
        for (Map<String, String> task : result.probeLines("task")) {
            byExecutor.computeIfAbsent(task.get("executor"), executor -> new TreeSet<>()).add(task.get("cpus"));
        }
        return byExecutor;
    }
}
