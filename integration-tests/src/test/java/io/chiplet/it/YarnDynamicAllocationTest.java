package io.chiplet.it;

import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dynamic allocation on a real YARN ({@link YarnCluster}, client deploy mode, the pip-installed pyspark, one-core
 * executors on NodeManager 0, two at first, between none and two, {@code yarn_dynamic.py}): executors run a backlog, one
 * of them is killed with {@code kill -9} mid-job (as YARN's preemption kills a container), the rest are removed when
 * idle. What the kernel's lock table says at each step: the killed executor's lease is free at once and its
 * replacement leases the freed chiplet; with no executor left no chiplet is held (probed as ChipletLeases takes a
 * lease); every executor, first or replacement, leased a chiplet of its own. The job's answer stays right, and the
 * driver's partition figure follows the executors that reported (down to the last one's when none is left).
 */
@ExtendWith(YarnCluster.Resolver.class)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class YarnDynamicAllocationTest
{
    private static final Pattern EXECUTOR_LINE = Pattern.compile("Chiplet plugin on executor (\\d+): task mode.*? on chiplets \\[(\\d+)]");
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void executorsAddedKilledAndRemovedReleaseTheirLeasesAtOnce(YarnCluster yarn, @TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Path leaseDir = temp.resolve("leases");
        Path control = Files.createDirectories(temp.resolve("control"));
        Path run = Files.createDirectories(temp.resolve("run"));
        Path script = run.resolve("yarn_dynamic.py");
        try (var in = YarnDynamicAllocationTest.class.getResourceAsStream("/yarn_dynamic.py")) {
            Files.copy(in, script);
        }
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.plugins", Spark.PLUGIN);
        conf.put("spark.chiplet.fsRoot", snapshot.toString());
        conf.put("spark.chiplet.measure.enabled", "false");
        // A directory of this test's own: the test probes its lock files while no executor leases.
        conf.put("spark.chiplet.leaseDir", leaseDir.toString());
        conf.put("spark.executor.cores", "1");
        conf.put("spark.dynamicAllocation.enabled", "true");
        conf.put("spark.dynamicAllocation.shuffleTracking.enabled", "true");
        conf.put("spark.dynamicAllocation.minExecutors", "0");
        // Two from the start (they start while the driver does), then as the load says.
        conf.put("spark.dynamicAllocation.initialExecutors", "2");
        conf.put("spark.dynamicAllocation.maxExecutors", "2");
        conf.put("spark.dynamicAllocation.executorIdleTimeout", "2s");
        conf.put("spark.dynamicAllocation.schedulerBacklogTimeout", "1s");
        conf.put("spark.dynamicAllocation.shuffleTracking.timeout", "2s");
        SparkSubmit submit = SparkSubmit.of(YarnSparkTest.CELL, run);
        yarn.prepare(submit, PipSpark.install(YarnSparkTest.CELL.pyspark()), run.resolve("staging"))
                .option("--deploy-mode", "client")
                .conf(YarnCluster.ON_EXECUTOR_NODE)
                .conf(conf)
                .jars(ProbeJar.pluginJar())
                .timeout(Duration.ofMinutes(6));
        long start = System.nanoTime();
        String application;
        SparkSubmit.Result result;
        try (SparkSubmit.Running driver = submit.startPython(script, control.toString())) {
            // 1. Two executors for the backlog, each owning a chiplet.
            application = awaitApplication(run);
            Map<Integer, Long> holders = await(() -> ProcFiles.ownerSlotHolders(leaseDir), found -> found.size() == 2, "two executors owning the two chiplets", driver);
            List<Long> first = YarnCluster.processes(application, "YarnCoarseGrainedExecutorBackend");
            phase("two executors hold leases", start);
            assertThat(new HashSet<>(holders.values())).as("owners of the chiplets").isEqualTo(new HashSet<>(first));

            // 2. kill -9 of one: its lease is free as soon as it is gone, and its replacement leases the freed chiplet.
            int freed = holders.keySet().iterator().next();
            long victim = holders.get(freed);
            ProcessHandle handle = ProcessHandle.of(victim).orElseThrow();
            assertThat(handle.destroyForcibly()).isTrue();
            handle.onExit().get(30, TimeUnit.SECONDS);
            assertThat(ProcFiles.leaseLockHolders(leaseDir)).as("holders of lease locks right after kill -9 of %d", victim).doesNotContain(victim);
            Map<Integer, Long> afterKill = ProcFiles.ownerSlotHolders(leaseDir);
            assertThat(afterKill).as("owners of the chiplets right after the kill of %d", victim).doesNotContainValue(victim);
            Map<Integer, Long> replaced = await(() -> ProcFiles.ownerSlotHolders(leaseDir),
                    found -> found.size() == 2 && !first.contains(found.get(freed)), "a replacement executor owning chiplet " + freed, driver);
            assertThat(YarnCluster.processes(application, "YarnCoarseGrainedExecutorBackend")).contains(replaced.get(freed));
            phase("the replacement holds the freed lease", start);
            Files.writeString(control.resolve("released"), "");

            // 3. Idle: every executor removed, every chiplet free (no JVM leases now, so probing the locks disturbs nothing).
            assertThat(driver.awaitLine("CHIPLET-PROBE idle")).as(PipStandalone.tail(run.resolve("driver.err"))).hasValue(
                    "CHIPLET-PROBE idle executors=0 partitions=" + StandaloneSessionSizingTest.expectedSettings(1).get("spark.sql.shuffle.partitions"));
            await(() -> YarnCluster.processes(application, "YarnCoarseGrainedExecutorBackend"), List::isEmpty, "no executor process left", driver);
            phase("every executor removed", start);
            assertThat(ProcFiles.leaseLockHolders(leaseDir)).as("lease lock holders with no executor").isEmpty();
            assertThat(ProcFiles.ownerSlotFree(leaseDir, 0)).isTrue();
            assertThat(ProcFiles.ownerSlotFree(leaseDir, 1)).isTrue();
            Files.writeString(control.resolve("idle-checked"), "");
            result = driver.finish();
        }
        System.err.printf("chiplet-it: YARN dynamic allocation run took %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        assertThat(result.succeeded()).as(result.describe()).isTrue();
        result.stdout().lines().filter(line -> line.startsWith("CHIPLET-PROBE")).forEach(System.err::println);
        long total = java.util.stream.LongStream.range(0, 800).sum();
        // The job survived the kill with the right answer. (Its partition figure is read from the driver's log: an idle
        // executor may be on its way out while the application reads the executor count and the setting.)
        assertThat(result.probeLines("busy")).singleElement().satisfies(busy -> assertThat(busy).containsEntry("total", Long.toString(total)));
        assertThat(result.driverLog()).contains("removed: the partition figure no longer counts it")
                .containsPattern("sized partitions for 2 of 2 expected executors \\(dynamic allocation's initial executors .*\\): .*spark\\.sql\\.shuffle\\.partitions = "
                        + StandaloneSessionSizingTest.expectedSettings(2).get("spark.sql.shuffle.partitions") + "\\b");

        // Every executor, first or replacement, leased one chiplet of its own.
        Map<String, Path> logs = yarn.containerLogs(application, "stderr");
        List<String> executorLogs = new ArrayList<>();
        for (Path log : logs.values()) {
            String text = Files.readString(log);
            if (text.contains("YarnCoarseGrainedExecutorBackend") || EXECUTOR_LINE.matcher(text).find()) {
                executorLogs.add(text);
            }
        }
        Set<String> placed = new HashSet<>();
        for (String log : executorLogs) {
            Matcher matcher = EXECUTOR_LINE.matcher(log);
            if (matcher.find()) {
                placed.add(matcher.group(1));
                assertThat(log).contains(": exclusive").doesNotContain("shared with");
            }
        }
        // The first two and the replacement at least (an executor idle before the first job may go and come back).
        assertThat(placed).as("executors that leased a chiplet").hasSizeGreaterThanOrEqualTo(3);
    }

    private static void phase(String what, long start)
    {
        System.err.printf("chiplet-it: YARN dynamic allocation: %s after %d s%n", what, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
    }

    private static String awaitApplication(Path run)
            throws Exception
    {
        Pattern submitted = Pattern.compile("Submitted application (application_\\d+_\\d+)");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Path err = run.resolve("driver.err");
            if (Files.exists(err)) {
                Matcher matcher = submitted.matcher(Files.readString(err));
                if (matcher.find()) {
                    return matcher.group(1);
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no application submitted within " + WAIT + ":\n" + PipStandalone.tail(run.resolve("driver.err")));
    }

    private interface Probe<T>
    {
        T read()
                throws Exception;
    }

    private static <T> T await(Probe<T> probe, java.util.function.Predicate<T> done, String what, SparkSubmit.Running driver)
            throws Exception
    {
        long deadline = System.nanoTime() + WAIT.toNanos();
        T seen = probe.read();
        while (!done.test(seen)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what + "; last seen " + seen + "\n" + driver.finish().describe());
            }
            Thread.sleep(100);
            seen = probe.read();
        }
        return seen;
    }
}
