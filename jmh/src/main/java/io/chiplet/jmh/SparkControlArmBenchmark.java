package io.chiplet.jmh;

import io.chiplet.spark.placement.TaskPlacement;
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
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the in-place measurement adds to every task (docs/measuring.md): the task-mode hooks pair
 * ({@code onTaskStart}, {@code onTaskSucceeded}) with measuring off (placement only), with the default control share
 * (one window or task in ten unplaced) and with half unplaced, in both designs (windows per host, task-level arms).
 * A control task skips the pin and its restore but pays the arm's draw (and, for windows, two clock reads and the
 * spanning check at its end), the sampled hook CPU clock reads (one call in 16) and the arm's queueing for the driver;
 * the difference to {@code off} is the measurement's per-task cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class SparkControlArmBenchmark
{
    private static final int PARTITIONS = 64;

    @Param({"off", "0.1", "0.5"})
    public String controlShare;

    /**
     * A sysfs snapshot of more than one L3 group ({@code spark.chiplet.fsRoot}), empty for the live machine: a host of
     * one L3 group measures nothing (no control arm), so on one the measured hooks run only with a snapshot, e.g.
     * {@code -p fsRoot=<core's two-cpus-two-chiplets snapshot unpacked>}.
     */
    @Param({""})
    public String fsRoot;

    /** {@code window}: switchback windows per host (the default); {@code task}: task-level arms (opt-in). */
    @Param({"window", "task"})
    public String design;

    private final TaskPlacement.TaskIdentity[] tasks = new TaskPlacement.TaskIdentity[PARTITIONS];
    private int next;
    private long attempt;
    private TaskPlacement.TaskIdentity current;
    private HookedSparkExecutor executor;

    @Setup
    public void setup()
            throws IOException
    {
        for (int partition = 0; partition < PARTITIONS; partition++) {
            tasks[partition] = new TaskPlacement.TaskIdentity(1, partition, partition);
        }
        Map<String, String> conf = new HashMap<>();
        conf.put("spark.chiplet.mode", "task");
        if (!fsRoot.isEmpty()) {
            conf.put("spark.chiplet.fsRoot", fsRoot);
        }
        conf.put("spark.chiplet.measure.enabled", Boolean.toString(!controlShare.equals("off")));
        if (!controlShare.equals("off")) {
            conf.put("spark.chiplet.measure.controlShare", controlShare);
            conf.put("spark.chiplet.measure.design", design);
        }
        executor = HookedSparkExecutor.start(conf, () -> current);
    }

    @Benchmark
    public void startAndSucceed()
    {
        TaskPlacement.TaskIdentity task = tasks[next];
        next = (next + 1) % PARTITIONS;
        current = new TaskPlacement.TaskIdentity(task.stageId(), task.partitionId(), attempt++);
        executor.startAndSucceedTask();
    }

    @TearDown
    public void tearDown()
            throws IOException
    {
        executor.close();
    }
}
