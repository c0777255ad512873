package io.chiplet.it;

import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dynamic allocation on Spark Standalone with several executors per Worker (one two-core Worker, one-core
 * executors, the pip-installed pyspark): executors start for a backlog, are released when idle and start again.
 * The driver forgets each released executor, keeps the last figure while none runs (so sessions are not sized for
 * nothing), and sizes again as they come back; each new executor leases a chiplet of its own on the two-chiplet
 * snapshot (a released executor's lease is free again), and the job's answers stay right.
 */
class StandaloneDynamicAllocationTest
{
    private static final SparkSubmit.Cell CELL = new SparkSubmit.Cell("4.2.1", 25);
    private static final Pattern EXECUTOR_LINE = Pattern.compile("Chiplet plugin on executor (\\d+): task mode.*? on chiplets \\[(\\d+)]");

    @Test
    void executorsComeAndGoAndSizingAndLeasesFollow(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        String partitions = StandaloneSessionSizingTest.expectedSettings(2).get("spark.sql.shuffle.partitions");
        Path script = temp.resolve("dynamic_allocation.py");
        try (var in = StandaloneDynamicAllocationTest.class.getResourceAsStream("/dynamic_allocation.py")) {
            Files.copy(in, script);
        }
        Path run = Files.createDirectories(temp.resolve("run"));
        SparkSubmit submit = SparkSubmit.of(CELL, run);
        Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, temp));
        conf.putAll(Map.of("spark.executor.cores", "1", "spark.executor.memory", "512m",
                "spark.dynamicAllocation.enabled", "true", "spark.dynamicAllocation.shuffleTracking.enabled", "true",
                "spark.dynamicAllocation.minExecutors", "0", "spark.dynamicAllocation.maxExecutors", "2",
                "spark.dynamicAllocation.executorIdleTimeout", "2s", "spark.dynamicAllocation.schedulerBacklogTimeout", "1s"));
        try (PipStandalone cluster = PipStandalone.startMaster(submit.home(), submit.javaHome())) {
            cluster.startWorker("worker-0", 2, Map.of());
            SparkSubmit.Result result = submit.master(cluster.masterUrl()).conf(conf).jars(ProbeJar.pluginJar())
                    .timeout(Duration.ofMinutes(5)).runPython(script);
            assertThat(result.succeeded()).as(result.describe()).isTrue();
            result.stdout().lines().filter(line -> line.startsWith("CHIPLET-PROBE")).forEach(System.err::println);

            List<Map<String, String>> busy = result.probeLines("busy");
            assertThat(busy).hasSize(2);
            long total = 0;
            for (int i = 0; i < 800; i++) {
                total += i;
            }
            for (Map<String, String> round : busy) {
                assertThat(round).containsEntry("total", Long.toString(total));
            }
            // Released when idle: the driver forgot them one by one, the figure followed down to the last one's and
            // stayed there with none left; when they came back it rose again.
            Map<String, String> idle = result.probeLines("idle").getFirst();
            assertThat(idle).containsEntry("executors", "0");
            assertThat(result.driverLog()).contains("removed: the partition figure no longer counts it", "how many to expect is unknown: dynamic allocation");
            assertThat(idle.get("partitions")).isEqualTo(StandaloneSessionSizingTest.expectedSettings(1).get("spark.sql.shuffle.partitions"));

            // Every executor, first or later, held one chiplet; at most two ran at once, on different chiplets.
            Map<String, String> chipletByExecutor = new HashMap<>();
            for (String log : result.executorLogs().values()) {
                Matcher matcher = EXECUTOR_LINE.matcher(log);
                if (matcher.find()) {
                    chipletByExecutor.put(matcher.group(1), matcher.group(2));
                }
            }
            assertThat(chipletByExecutor).as(result.describe()).hasSizeGreaterThanOrEqualTo(3);
            assertThat(String.join("\n", result.executorLogs().values())).contains(": exclusive").doesNotContain("shared with");
            for (Map<String, String> round : busy) {
                if (round.get("executors").equals("2")) {
                    assertThat(round).containsEntry("partitions", partitions);
                }
            }
        }
    }
}
