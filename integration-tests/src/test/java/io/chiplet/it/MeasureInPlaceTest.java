package io.chiplet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chiplet.it.SparkSubmit.Cell;
import io.chiplet.it.SparkSubmit.Result;
import io.chiplet.it.probe.Probe;
import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Placement measured in place, run as users run it. The default design, switchback windows per host, against an
 * effect that comes from the machine: a PySpark SQL job whose placed windows share their CPU with a busy process
 * pinned there ({@link #aBusyProcessOnThePlacedCpuIsFoundAsASlowdownAndTheGuardStopsPlacement}), and the same job
 * with nothing beside it. Then the opt-in task design with the test-only injector: the pip-installed pyspark's {@code spark-submit} with the plugin
 * in {@code --jars}, {@code local-cluster} with two executor JVMs, task mode on the two-chiplet snapshot. The test-only
 * effect injector (honoured only with {@code -Dchiplet.test.effectInjector=true} on the executors) slows one arm by a
 * known factor; the driver's report must recover it within its interval, and an injected harm must make the guard
 * stop placement while the job's answer stays the one computed without Spark. Each run is one application of
 * {@value #PARTITIONS} tasks of some 200 ms on two 1-core executors (about 20 s of tasks). The control share is 0.5
 * here so that a short job reaches the evidence the estimate asks for (20 tasks per arm).
 */
class MeasureInPlaceTest
{
    private static final int PARTITIONS = 200;
    private static final String MASTER = "local-cluster[2,1,1024]";

    /** The SQL job's queries: each of 4 map tasks hashes 1 M rows, some 50 to 500 ms on this busy machine. */
    private static final String ROWS = "4000000";
    /** Busy processes pinned to CPU 0: on a machine other builds keep busy, the kernel's balancing evens out one. */
    static final int BUSY_PROCESSES = 3;
    private static final String SQL_PARTITIONS = "4";

    @Test
    void aBusyProcessOnThePlacedCpuIsFoundAsASlowdownAndTheGuardStopsPlacement(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path reports = temp.resolve("reports");
        // The executor's one task slot is placed on chiplet 0 of the snapshot, CPU 0: processes spinning there take
        // most of it from placed tasks; control tasks run where the kernel puts them (CPU 1 mostly).
        List<Process> busy = new java.util.ArrayList<>();
        SqlRun result;
        try {
            for (int i = 0; i < BUSY_PROCESSES; i++) {
                busy.add(new ProcessBuilder("taskset", "-c", "0", "sh", "-c", "while :; do :; done").redirectErrorStream(true).start());
            }
            // Until the guard stops placement (and 5 queries more), at most 4 minutes.
            result = runSql(temp, reports, "240", "until-stopped", localCluster(temp), "local-cluster[1,1,1024]", Map.of(), SparkSubmit.Running::processes);
        }
        finally {
            for (Process process : busy) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
        assertFoundAsSlowdownAndStopped(result, reports, "local-cluster");
    }

    /** Switchback windows over a busy CPU 0 (the placed one): a slowdown, with the right sign, and the guard stopped placement. */
    static void assertFoundAsSlowdownAndStopped(SqlRun run, Path reports, String where)
            throws IOException
    {
        Result result = run.result();
        JsonNode report = report(reports);
        System.err.println("chiplet measure IT (" + where + ", busy CPU 0): " + report.get("summary").asText());
        assertThat(executorLogsOf(result, report)).as(result.describe()).anySatisfy(log -> assertThat(log).contains("on chiplets [0] (CPUs 0)"));
        assertThat(report.get("design").asText()).startsWith("switchback windows per host");
        assertThat(report.get("unit").asText()).isEqualTo("task");
        JsonNode estimate = report.get("estimate");
        assertThat(estimate.get("enough").asBoolean()).as(report.toPrettyString()).isTrue();
        // Placed windows are slower: the figure's sign is right, and the guard acted on it.
        assertThat(estimate.get("speedUp").asDouble()).as(report.toPrettyString()).isLessThan(1);
        assertThat(estimate.get("verdict").asText()).as(report.toPrettyString()).isEqualTo("placed slower");
        assertThat(report.get("guard").get("placing").asBoolean()).as(report.toPrettyString()).isFalse();
        assertThat(result.driverLog() + result.stdout()).contains("Chiplet plugin stops placing tasks in chiplet-measure-sql");
        assertThat(result.probeLines("result").getFirst().get("placing")).isEqualTo("False");
        assertThat(sqlAnswers(result)).isEqualTo(1);
    }

    @Test
    void withNothingBesideItASmallHostGetsAFigureAndPlacementGoesOn(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path reports = temp.resolve("reports");
        SqlRun result = runSql(temp, reports, "60", "fixed", localCluster(temp), "local-cluster[1,1,1024]", Map.of(), SparkSubmit.Running::processes);
        assertMeasuredAndPlacing(result, reports, temp, "local-cluster");
    }

    /**
     * A quiet run: a figure over windows, placement goes on, the seed drawn and the run in the history; the plugin's
     * own CPU in the executors agrees with the kernel's reading of its threads ({@link PluginThreadsCpu}).
     */
    static void assertMeasuredAndPlacing(SqlRun run, Path reports, Path temp, String where)
            throws IOException
    {
        Result result = run.result();
        JsonNode report = report(reports);
        System.err.println("chiplet measure IT (" + where + ", nothing beside): " + report.get("summary").asText());
        JsonNode estimate = report.get("estimate");
        // On 2 cores, SQL stages of a few tasks: a figure, over windows.
        assertThat(estimate.get("enough").asBoolean()).as(report.toPrettyString()).isTrue();
        assertThat(report.get("guard").get("placing").asBoolean()).as(report.toPrettyString()).isTrue();
        assertThat(report.get("pluginCost").get("share").asDouble()).isPositive();
        // The seed was drawn for this application and recorded; the run went into the history.
        assertThat(report.get("plan").get("seed").asLong()).isNotEqualTo(io.chiplet.settings.PluginSettings.DEFAULT_MEASURE_SEED);
        assertThat(result.driverLog() + result.stdout()).contains("over the last 1 run of chiplet-measure-sql");
        assertThat(Files.readString(temp.resolve("history").resolve("measure-history.jsonl"))).contains("\"key\":\"chiplet-measure-sql\"");
        assertThat(sqlAnswers(result)).isEqualTo(1);
        assertPluginCpuAgreesWithProc(run, report);
    }

    /**
     * The executors' plugin threads' CPU time as the plugin read it (logged at each executor's end) against
     * {@code /proc}'s utime + stime of the same threads, read just before Spark stopped ({@link #runSql}).
     */
    private static void assertPluginCpuAgreesWithProc(SqlRun run, JsonNode report)
    {
        List<PluginThreadsCpu.Readings> readings = PluginThreadsCpu.join(run.outside(), executorLogsOf(run.result(), report));
        long tick = ProcFiles.clockTickMillis();
        assertThat(readings).isNotEmpty();
        for (PluginThreadsCpu.Readings executor : readings) {
            System.err.println("chiplet measure IT, plugin CPU against /proc: " + executor.describe() + ", tolerance " + executor.tolerance(tick) + " ms");
            // Threads that did some work, so that agreeing says something.
            assertThat(executor.outsideTotal()).as(executor.describe()).isPositive();
            PluginThreadsCpu.assertAgree(executor, tick);
        }
        report.get("notes").forEach(note -> {
            if (note.asText().startsWith("Plugin CPU")) {
                System.err.println("chiplet measure IT: " + note.asText() + " Job CPU " + report.get("pluginCost").get("jobCpuNanos").asLong() / 1e6 + " ms.");
            }
        });
    }

    /** The logs of this report's application's executors (a shared cluster's work directory holds earlier ones too). */
    private static List<String> executorLogsOf(Result result, JsonNode report)
    {
        java.util.regex.Matcher id = java.util.regex.Pattern.compile("\\((app-[^)]+)\\)").matcher(report.get("summary").asText());
        assertThat(id.find()).as(report.get("summary").asText()).isTrue();
        return result.executorLogs().entrySet().stream().filter(log -> log.getKey().contains("/" + id.group(1) + "/")).map(Map.Entry::getValue).toList();
    }

    static SparkSubmit localCluster(Path temp)
            throws IOException
    {
        return SparkSubmit.of(Cell.configured().getFirst(), Files.createDirectories(temp.resolve("run")));
    }

    /**
     * Runs the SQL job with the measurement's trial settings; its executors' ({@code executors}: the JVMs of the run)
     * plugin threads are read from {@code /proc} once its queries are done and before Spark stops.
     */
    static SqlRun runSql(Path temp, Path reports, String seconds, String until, SparkSubmit submit, String master, Map<String, String> extraConf,
            java.util.function.Function<SparkSubmit.Running, List<ProcessHandle>> executors)
            throws Exception
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Path script = temp.resolve("measure_sql_job.py");
        try (var in = MeasureInPlaceTest.class.getResourceAsStream("/measure_sql_job.py")) {
            Files.copy(in, script);
        }
        Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, temp));
        conf.put("spark.chiplet.mode", "task");
        conf.put("spark.chiplet.measure.enabled", "true");
        // A trial's settings (docs/measuring.md): half the windows control, windows of 2 s (tasks of a few hundred ms).
        conf.put("spark.chiplet.measure.controlShare", "0.5");
        conf.put("spark.chiplet.measure.window", "2s");
        conf.put("spark.chiplet.measure.historyDir", temp.resolve("history").toString());
        conf.put("spark.chiplet.measure.reportDir", reports.toString());
        conf.putAll(extraConf);
        Path release = temp.resolve("release");
        Result result;
        Map<String, Map<String, Long>> outside = Map.of();
        try (SparkSubmit.Running running = submit.master(master).conf(conf).jars(ProbeJar.pluginJar())
                .timeout(java.time.Duration.ofSeconds(Long.parseLong(seconds) + 180)).startPython(script, seconds, ROWS, SQL_PARTITIONS, until, release.toString())) {
            // The executor logs its own CPU once its tasks have drained; /proc is read right after, both while it is idle.
            if (running.awaitLine("CHIPLET-PROBE result").isPresent() && running.awaitExecutorLog(PluginThreadsCpu.LOGGED_PREFIX)) {
                outside = PluginThreadsCpu.readOutside(executors.apply(running));
            }
            Files.writeString(release, "done\n");
            result = running.finish();
        }
        assertThat(result.succeeded()).as(result.describe()).isTrue();
        return new SqlRun(result, outside);
    }

    /**
     * A run of the SQL job.
     *
     * @param outside the executors' {@code chiplet-*} threads' CPU time read from {@code /proc} before Spark stopped
     */
    record SqlRun(Result result, Map<String, Map<String, Long>> outside) {}

    /** How many different answers the job's queries gave: 1, placed, control or stopped alike. */
    private static int sqlAnswers(Result result)
    {
        assertThat(result.probeLines("result")).as(result.describe()).hasSize(1);
        return Integer.parseInt(result.probeLines("result").getFirst().get("answers"));
    }

    @Test
    void anInjectedSpeedUpIsRecoveredWithinTheIntervalAndTheReportIsWritten(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path reports = temp.resolve("reports");
        // Placed tasks take 0.8 of a control task's time: a speed-up of 1.25.
        Result result = run(temp, reports, "0.8");

        JsonNode report = report(reports);
        JsonNode estimate = report.get("estimate");
        assertThat(estimate.get("enough").asBoolean()).as(report.toPrettyString()).isTrue();
        assertThat(estimate.get("speedUpLow").asDouble()).as(report.toPrettyString()).isLessThanOrEqualTo(1.25);
        assertThat(estimate.get("speedUpHigh").asDouble()).as(report.toPrettyString()).isGreaterThanOrEqualTo(1.25);
        assertThat(estimate.get("verdict").asText()).isEqualTo("placed faster");
        assertThat(estimate.get("placedUnits").asInt() + estimate.get("controlUnits").asInt()).isBetween(PARTITIONS * 8 / 10, PARTITIONS);
        assertThat(report.get("guard").get("placing").asBoolean()).isTrue();
        assertThat(report.get("pluginCost").get("jobCpuNanos").asLong()).isPositive();
        // Read from the JVMs: present and positive. (This job's tasks mostly sleep, so its CPU time is tiny and the
        // share is no figure for real jobs; docs/measuring.md and the JMH benchmark have those.)
        assertThat(report.get("pluginCost").get("share").asDouble()).isPositive();
        System.err.println("chiplet measure IT: " + report.get("summary").asText());
        assertThat(htmlOf(reports)).contains("<svg").contains("overall").doesNotContain("<script");
        // The one WARN line at the application's end, as the report's summary says it.
        assertThat(result.driverLog() + result.stdout()).contains("WARN MeasuringListener: Chiplet placement measured in place for chiplet-probe");
        assertThat(checksum(result)).isEqualTo(Probe.expectedChecksum(PARTITIONS));
    }

    @Test
    void anInjectedHarmStopsPlacementAndTheAnswerIsThatOfAPluginOffRun(@TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path reports = temp.resolve("reports");
        // Placed tasks take 1.25 times a control task's time.
        Result result = run(temp, reports, "1.25");

        JsonNode report = report(reports);
        assertThat(report.get("guard").get("placing").asBoolean()).as(report.toPrettyString()).isFalse();
        assertThat(report.get("estimate").get("verdict").asText()).isEqualTo("placed slower");
        assertThat(report.get("estimate").get("speedUpLow").asDouble()).isLessThanOrEqualTo(0.8);
        assertThat(report.get("estimate").get("speedUpHigh").asDouble()).isGreaterThanOrEqualTo(0.8);
        assertThat(result.driverLog() + result.stdout()).contains("Chiplet plugin stops placing tasks in chiplet-probe");
        // After the stop every task runs as without the plugin: the last ones all on the process's own CPUs.
        List<Map<String, String>> last = result.probeLines("task").stream()
                .sorted(Comparator.comparingInt(task -> Integer.parseInt(task.get("partition"))))
                .skip(PARTITIONS - 10)
                .toList();
        assertThat(last).hasSize(10).allSatisfy(task -> assertThat(task.get("cpus")).isEqualTo(liveCpus));
        assertThat(checksum(result)).isEqualTo(Probe.expectedChecksum(PARTITIONS));
    }

    private static Result run(Path temp, Path reports, String injectedTimeRatio)
            throws Exception
    {
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, temp));
        conf.put("spark.chiplet.measure.enabled", "true");
        conf.put("spark.chiplet.measure.controlShare", "0.5");
        // Task-level arms (the opt-in design): a short job of 100 tasks holds enough of each arm.
        conf.put("spark.chiplet.measure.design", "task");
        conf.put("spark.chiplet.measure.historyDir", temp.resolve("history").toString());
        conf.put("spark.chiplet.measure.reportDir", reports.toString());
        conf.put("spark.chiplet.measure.seed", "23");
        conf.put("spark.chiplet.measure.test.injectTimeRatio", injectedTimeRatio);
        conf.put("spark.executor.extraJavaOptions", "-Dchiplet.test.effectInjector=true");
        Cell cell = Cell.configured().getFirst();
        Result result = SparkSubmit.of(cell, Files.createDirectories(temp.resolve("run"))).master(MASTER).conf(conf).jars(ProbeJar.pluginJar())
                .runJava(ProbeJar.get(), ProbeJar.mainClass(), Integer.toString(PARTITIONS), "2");
        assertThat(result.succeeded()).as(result.describe()).isTrue();
        return result;
    }

    private static JsonNode report(Path reports)
            throws IOException
    {
        Path json = only(reports, ".json");
        return new ObjectMapper().readTree(json.toFile());
    }

    private static String htmlOf(Path reports)
            throws IOException
    {
        return Files.readString(only(reports, ".html"));
    }

    private static Path only(Path reports, String suffix)
            throws IOException
    {
        try (Stream<Path> files = Files.list(reports)) {
            List<Path> matching = files.filter(file -> file.getFileName().toString().startsWith("chiplet-measure-app-") && file.toString().endsWith(suffix)).toList();
            assertThat(matching).as("report files in %s", reports).hasSize(1);
            return matching.getFirst();
        }
    }

    private static long checksum(Result result)
    {
        assertThat(result.probeLines("result")).as(result.describe()).hasSize(1);
        return Long.parseLong(result.probeLines("result").getFirst().get("checksum"));
    }
}
