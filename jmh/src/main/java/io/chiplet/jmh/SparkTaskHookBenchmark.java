package io.chiplet.jmh;

import io.chiplet.spark.TaskHooks;
import io.chiplet.spark.placement.TaskPlacement;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the Spark plugin adds to every task: {@code ExecutorPlugin.onTaskStart} then {@code onTaskSucceeded}, on the
 * task's thread, through the placement {@code spark.plugins=io.chiplet.spark.ChipletPlugin} chooses on this machine
 * for each mode (task mode: pin the thread to its planned chiplet and restore it; executor mode: the process is
 * already bound, the hooks only count). The target is under 5 µs for the pair.
 *
 * <p>Tasks cycle over 64 partitions of one stage, as a stage's tasks would. Needs Spark on the class path
 * ({@code bin/chiplet bench} puts it there).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class SparkTaskHookBenchmark
{
    private static final int PARTITIONS = 64;

    @Param({"task", "executor"})
    public String mode;

    private final TaskPlacement.TaskIdentity[] tasks = new TaskPlacement.TaskIdentity[PARTITIONS];
    private int next;
    private TaskPlacement.TaskIdentity current;
    private TaskHooks.Started started;
    private ExecutorPlugin plugin;
    private Path leaseDir;

    @Setup
    public void setup()
            throws IOException
    {
        for (int partition = 0; partition < PARTITIONS; partition++) {
            tasks[partition] = new TaskPlacement.TaskIdentity(1, partition, 1000L + partition);
        }
        // Executor mode leases a chiplet: in a directory of its own, so a real executor on this host is not disturbed.
        leaseDir = Files.createTempDirectory("chiplet-bench-leases");
        Map<String, String> conf = new HashMap<>();
        conf.put("spark.chiplet.mode", mode);
        conf.put("spark.chiplet.leaseDir", leaseDir.toString());
        started = TaskHooks.start(conf, () -> current);
        plugin = started.plugin();
        if (started.tasksCounted() < 0) {
            // A plugin that switched itself off would measure nothing: its warning above says why.
            throw new IllegalStateException("the chiplet plugin switched itself off in mode " + mode + "; see its warning");
        }
    }

    @Benchmark
    public void startAndSucceed()
    {
        current = tasks[next];
        next = (next + 1) % PARTITIONS;
        plugin.onTaskStart();
        plugin.onTaskSucceeded();
    }

    @TearDown
    public void tearDown()
            throws IOException
    {
        long counted = started.tasksCounted();
        plugin.shutdown();
        try (var files = Files.list(leaseDir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(leaseDir);
        if (counted <= 0) {
            throw new IllegalStateException("the plugin counted no tasks: the hooks did not run through its placement");
        }
    }
}
