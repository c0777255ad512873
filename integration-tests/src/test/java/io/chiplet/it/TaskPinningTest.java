package io.chiplet.it;

import io.chiplet.topology.Snapshots;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code local[2]} on a snapshot that presents this machine's two CPUs as two chiplets (CPU 0 and CPU 1): every task
 * thread is bound to one chiplet's CPU while it runs, tasks running at the same time are on different chiplets, the
 * executor's threads get their mask back afterwards, and the answers are those of a run without the plugin.
 */
class TaskPinningTest
{
    private static final String METRICS_SOURCE = "plugin.io.chiplet.spark.ChipletPlugin";
    private static final int PARTITIONS = 40;

    /** What one task saw from inside. */
    record TaskRun(int partition, String cpus, int tid, long startNanos, long endNanos, long sum)
    {
        static TaskRun parse(String line)
        {
            String[] fields = line.split("\\|");
            return new TaskRun(Integer.parseInt(fields[0]), fields[1], Integer.parseInt(fields[2]), Long.parseLong(fields[3]), Long.parseLong(fields[4]), Long.parseLong(fields[5]));
        }
    }

    @Test
    void everyTaskRunsOnItsChipletEvenlyAndThreadsAreRestored(@TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);

        Job without = run(false, Map.of());
        Job with;
        try (LogCapture log = LogCapture.capture()) {
            with = run(true, Map.of("spark.chiplet.measure.enabled", "false", "spark.chiplet.fsRoot", snapshot.toString()));
            assertThat(log.problems()).isEmpty();
            assertThat(log.executorSummaries()).singleElement().asString().contains("task mode", "every chiplet of the host");
        }

        // The planned chiplets: CPU 0 and CPU 1. Inside every task, the thread was bound to exactly one.
        assertThat(with.tasks()).hasSize(PARTITIONS).allSatisfy(task -> assertThat(task.cpus()).isIn("0", "1"));
        // What the placement counted per chiplet is what the tasks saw: each task ran on the chiplet it was placed on.
        Map<String, Long> seen = countByCpu(with.tasks());
        assertThat(with.metrics()).containsEntry("tasks.chiplet.0", seen.getOrDefault("0", 0L)).containsEntry("tasks.chiplet.1", seen.getOrDefault("1", 0L));
        // Evenly: tasks that overlapped in time never shared a chiplet, and each chiplet ran a fair share.
        assertOverlappingTasksOnDifferentChiplets(with.tasks());
        assertThat(seen.values()).allSatisfy(count -> assertThat(count).isBetween(PARTITIONS * 3L / 10, PARTITIONS * 7L / 10));

        // After the tasks every executor thread that ran one has the process's mask again.
        for (int tid : with.tasks().stream().map(TaskRun::tid).distinct().toList()) {
            threadCpus(tid).ifPresent(cpus -> assertThat(cpus).as("thread %d after its tasks", tid).isEqualTo(liveCpus));
        }
        // Without the plugin nothing is pinned.
        assertThat(without.tasks()).allSatisfy(task -> assertThat(task.cpus()).isEqualTo(liveCpus));

        // Same answers.
        assertThat(with.sums()).isEqualTo(without.sums());
        assertThat(with.groups()).isEqualTo(without.groups());
    }

    @Test
    void adaptivePolicyRunsItsControllerOnTheFallbackSignal(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        Job without = run(false, Map.of());
        Job with;
        try (LogCapture log = LogCapture.capture()) {
            with = run(true, Map.of("spark.chiplet.measure.enabled", "false", "spark.chiplet.fsRoot", snapshot.toString(), "spark.chiplet.policy", "adaptive", "spark.chiplet.adaptive.intervalMs", "20"));
            assertThat(log.problems()).isEmpty();
            assertThat(log.executorSummaries()).singleElement().asString().contains("task mode", "every chiplet of the host");
        }
        assertThat(with.tasks()).allSatisfy(task -> assertThat(task.cpus()).isIn("0", "1"));
        // The controller sampled the task threads: no PMU in this VM, so the software fallback.
        assertThat(with.metrics().get("remoteAccessSignal")).isEqualTo("software-fallback");
        assertThat((Double) with.metrics().get("remoteAccessRate")).isNotNaN();
        assertThat((Integer) with.metrics().get("spread")).isBetween(1, 2);
        assertThat(with.sums()).isEqualTo(without.sums());
        assertThat(with.groups()).isEqualTo(without.groups());
    }

    /**
     * The process narrowed from outside as the kubelet narrows a container (here {@code taskset -a -p}, every thread
     * of this JVM to CPU 1): within a check interval the executor notices, counts it, and places later tasks within
     * CPU 1 only — without it, the slots planned on chiplet 0 would pin tasks back onto CPU 0, outside the process's
     * CPUs. Widened again, tasks use both chiplets again. Each task reads its own mask from
     * {@code /proc/thread-self/status} while it runs.
     */
    @Test
    void tasksFollowTheCpusetWhenTheProcessIsNarrowedFromOutside(@TempDir Path temp)
            throws Exception
    {
        Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, temp);
        long pid = ProcessHandle.current().pid();
        SparkSession spark = Spark.start(true, Map.of("spark.chiplet.measure.enabled", "false", "spark.chiplet.fsRoot", snapshot.toString()));
        try (LogCapture log = LogCapture.capture()) {
            assertThat(cpusOfTasks(spark)).containsExactlyInAnyOrder("0", "1");
            taskset("1", pid);
            try {
                long changed = awaitCpusetChanges(1);
                System.err.println("chiplet cpuset follow (Spark): change counted " + changed + " ms after taskset, check interval 1000 ms for 30 s, 5000 ms later");
                assertThat(cpusOfTasks(spark)).containsExactly("1");
            }
            finally {
                taskset("0-1", pid);
            }
            awaitCpusetChanges(2);
            assertThat(cpusOfTasks(spark)).containsExactlyInAnyOrder("0", "1");
            assertThat(log.warnings()).isEmpty();
        }
        finally {
            Spark.stop(spark);
        }
    }

    /** The distinct masks task threads had, over a job of many short tasks on both slots. */
    private static java.util.Set<String> cpusOfTasks(SparkSession spark)
    {
        return spark.range(0, PARTITIONS * 1000L, 1, PARTITIONS)
                .mapPartitions((MapPartitionsFunction<Long, String>) TaskPinningTest::observe, Encoders.STRING())
                .collectAsList()
                .stream()
                .map(line -> TaskRun.parse(line).cpus())
                .collect(java.util.stream.Collectors.toSet());
    }

    /** Waits for the executor's cpuset.changes gauge to reach {@code count}; returns the milliseconds it took. */
    private static long awaitCpusetChanges(long count)
            throws InterruptedException
    {
        long start = System.nanoTime();
        long deadline = start + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Object changes = metrics().get("cpuset.changes");
            if (changes instanceof Long seen && seen >= count) {
                assertThat(seen).isEqualTo(count);
                return java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("cpuset.changes did not reach " + count + ": " + metrics().get("cpuset.changes"));
    }

    private static void taskset(String cpus, long pid)
            throws Exception
    {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)).redirectErrorStream(true).start();
        String output = new String(taskset.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(taskset.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && taskset.exitValue() == 0).as("taskset: " + output).isTrue();
    }

    private record Job(List<TaskRun> tasks, List<Long> sums, List<String> groups, Map<String, Object> metrics) {}

    private static Job run(boolean withPlugin, Map<String, String> conf)
    {
        SparkSession spark = Spark.start(withPlugin, conf);
        try {
            List<TaskRun> tasks = spark.range(0, PARTITIONS * 1000L, 1, PARTITIONS)
                    .mapPartitions((MapPartitionsFunction<Long, String>) TaskPinningTest::observe, Encoders.STRING())
                    .collectAsList()
                    .stream()
                    .map(TaskRun::parse)
                    .sorted(Comparator.comparingInt(TaskRun::partition))
                    .toList();
            // Read now: the query below runs more tasks.
            Map<String, Object> metrics = withPlugin ? metrics() : Map.of();
            List<String> groups = spark.range(0, 100_000, 1, 8).selectExpr("id % 13 AS k", "id").groupBy("k").sum("id").orderBy("k")
                    .collectAsList().stream().map(Object::toString).toList();
            return new Job(tasks, tasks.stream().map(TaskRun::sum).toList(), groups, metrics);
        }
        finally {
            Spark.stop(spark);
        }
    }

    /** Runs inside a task: reads the task thread's own mask while the task runs. */
    private static Iterator<String> observe(Iterator<Long> rows)
            throws IOException, InterruptedException
    {
        long start = System.nanoTime();
        long sum = 0;
        int partition = -1;
        while (rows.hasNext()) {
            long row = rows.next();
            partition = (int) (row / 1000);
            sum += row;
        }
        String status = Files.readString(Path.of("/proc/thread-self/status"));
        // Long enough that both task slots are busy together most of the time.
        Thread.sleep(30);
        String line = partition + "|" + field(status, "Cpus_allowed_list") + "|" + field(status, "Pid") + "|" + start + "|" + System.nanoTime() + "|" + sum;
        return List.of(line).iterator();
    }

    private static String field(String status, String name)
    {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).strip();
            }
        }
        throw new IllegalStateException("no " + name + " in /proc/thread-self/status");
    }

    private static Optional<String> threadCpus(int tid)
    {
        try {
            return Optional.of(field(Files.readString(Path.of("/proc/self/task/" + tid + "/status")), "Cpus_allowed_list"));
        }
        catch (NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Long> countByCpu(List<TaskRun> tasks)
    {
        Map<String, Long> counts = new HashMap<>();
        tasks.forEach(task -> counts.merge(task.cpus(), 1L, Long::sum));
        return counts;
    }

    private static void assertOverlappingTasksOnDifferentChiplets(List<TaskRun> tasks)
    {
        List<String> clashes = new ArrayList<>();
        for (TaskRun a : tasks) {
            for (TaskRun b : tasks) {
                boolean overlap = a.partition() < b.partition() && a.startNanos() < b.endNanos() && b.startNanos() < a.endNanos();
                if (overlap && a.cpus().equals(b.cpus())) {
                    clashes.add("partitions " + a.partition() + " and " + b.partition() + " both on CPU " + a.cpus());
                }
            }
        }
        assertThat(clashes).isEmpty();
    }

    /** The plugin's gauges (local mode: the executor lives in this JVM). */
    private static Map<String, Object> metrics()
    {
        Map<String, Object> values = new HashMap<>();
        for (Source source : CollectionConverters.asJava(SparkEnv.get().metricsSystem().getSourcesByName(METRICS_SOURCE))) {
            source.metricRegistry().getGauges().forEach((name, gauge) -> values.put(name, gauge.getValue()));
        }
        return values;
    }
}
