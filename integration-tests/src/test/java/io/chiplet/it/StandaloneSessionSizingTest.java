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
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partition sizing reaches the SparkSessions an application already has, on a real Spark Standalone cluster from
 * the pip-installed pyspark: the Master runs, the PySpark driver makes its sessions, and only then do the Workers
 * start, one after the other (as executors arrive on YARN and Kubernetes, and behind every notebook). The first
 * executor's figure is logged as provisional, the second completes it; the sessions' shuffles run what
 * {@code chiplet advise} (core's {@code SparkPartitionSettings}) gives for the executors' topology (the snapshot that
 * maps this machine's two CPUs as two chiplets, one per one-core executor); a value the user set in a session stays;
 * after {@code kill -9} of an executor and its replacement by the Master, the driver counts the two live executors,
 * not three.
 */
class StandaloneSessionSizingTest
{
    private static final SparkSubmit.Cell CELL = new SparkSubmit.Cell("4.2.1", 25);
    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void sessionsMadeBeforeTheWorkersGetTheExecutorsFigureAndKeepTheirUsersValue(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Map<String, String> expected = expectedSettings(2);
        Path script = temp.resolve("session_sizing.py");
        try (var in = StandaloneSessionSizingTest.class.getResourceAsStream("/session_sizing.py")) {
            Files.copy(in, script);
        }
        Path control = Files.createDirectories(temp.resolve("control"));
        Path run = Files.createDirectories(temp.resolve("run"));
        SparkSubmit submit = SparkSubmit.of(CELL, run);
        Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, temp));
        conf.putAll(Map.of("spark.cores.max", "2", "spark.executor.cores", "1", "spark.executor.memory", "512m",
                "spark.sql.adaptive.enabled", "false"));
        try (PipStandalone cluster = PipStandalone.startMaster(submit.home(), submit.javaHome());
                SparkSubmit.Running driver = submit.master(cluster.masterUrl()).conf(conf).jars(ProbeJar.pluginJar())
                        .timeout(Duration.ofMinutes(5)).startPython(script, control.toString())) {
            Path driverLog = run.resolve("driver.err");
            assertThat(driver.awaitLine("CHIPLET-PROBE session")).as(tail(driverLog)).hasValue("CHIPLET-PROBE session partitions=200");

            cluster.startWorker("worker-0", 1, Map.of());
            awaitCount(driverLog, "sized partitions for 1 of 2 expected executors", 1);
            assertThat(Files.readString(driverLog)).contains("sized partitions for 1 of 2 expected executors (spark.cores.max / spark.executor.cores in Standalone), provisional until they have reported");
            cluster.startWorker("worker-1", 1, Map.of());
            awaitCount(driverLog, "sized partitions for 2 of 2 expected executors (spark.cores.max / spark.executor.cores in Standalone): ", 1);
            Files.writeString(control.resolve("workers-started"), "");

            String partitions = expected.get("spark.sql.shuffle.partitions");
            String parallelism = expected.get("spark.default.parallelism");
            assertThat(driver.awaitLine("CHIPLET-PROBE sized")).as(tail(driverLog)).hasValue("CHIPLET-PROBE sized partitions=%s mine=7 parallelism=%s".formatted(partitions, parallelism));
            assertThat(driver.awaitLine("CHIPLET-PROBE shuffle")).as(tail(driverLog)).hasValue("CHIPLET-PROBE shuffle partitions=%s total=2000 mine=7 mineTotal=2000".formatted(partitions));
            assertThat(driver.awaitLine("CHIPLET-PROBE late")).hasValue("CHIPLET-PROBE late partitions=" + partitions);

            // kill -9 of one executor; the Master starts a replacement on the Worker it left.
            List<ProcessHandle> executors = cluster.executors();
            assertThat(executors).hasSize(2);
            executors.getFirst().destroyForcibly();
            awaitCount(driverLog, "removed: the partition figure no longer counts it", 1);
            awaitCount(driverLog, "Executor 2 on ", 1);
            Files.writeString(control.resolve("executor-replaced"), "");
            assertThat(driver.awaitLine("CHIPLET-PROBE after")).as(tail(driverLog))
                    .hasValue("CHIPLET-PROBE after partitions=%s parallelism=%s shuffle=%s total=2000".formatted(partitions, parallelism, partitions));
            SparkSubmit.Result result = driver.finish();
            assertThat(result.succeeded()).as(result.describe()).isTrue();
            result.stdout().lines().filter(line -> line.startsWith("CHIPLET-PROBE")).forEach(System.err::println);
            result.driverLog().lines().filter(line -> line.contains("Chiplet plugin sized") || line.contains("removed: the partition")).forEach(System.err::println);
            // Only what took effect is logged: no figure for three executors, ever.
            assertThat(result.driverLog()).doesNotContain("3 of 2 expected", "sized partitions for 3");
        }
    }

    /**
     * What {@code chiplet advise} says for one-core executors, each on a chiplet of its own of the snapshot
     * {@code two-cpus-two-chiplets} (8 MiB of L3 per chiplet), written out rather than computed by core's rule: 3
     * shuffle partitions and 2 RDD partitions per core, a multiple of the chiplets, 8 MiB partitions.
     */
    static Map<String, String> expectedSettings(int executors)
    {
        return switch (executors) {
            case 1 -> Map.of("spark.sql.shuffle.partitions", "3", "spark.default.parallelism", "2",
                    "spark.sql.adaptive.advisoryPartitionSizeInBytes", "8m", "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "32m");
            case 2 -> Map.of("spark.sql.shuffle.partitions", "6", "spark.default.parallelism", "4",
                    "spark.sql.adaptive.advisoryPartitionSizeInBytes", "8m", "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "32m");
            default -> throw new IllegalArgumentException("the snapshot has two chiplets, not " + executors);
        };
    }

    private static void awaitCount(Path log, String text, int times)
            throws Exception
    {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).split(Pattern.quote(text), -1).length - 1 >= times) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("'" + text + "' did not appear " + times + " times in the driver log within " + WAIT + ":\n" + tail(log));
    }

    private static String tail(Path log)
    {
        return PipStandalone.tail(log);
    }
}
