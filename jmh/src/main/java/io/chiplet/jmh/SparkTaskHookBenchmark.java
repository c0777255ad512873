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
    private HookedSparkExecutor executor;

    @Setup
    public void setup()
            throws IOException
    {
        for (int partition = 0; partition < PARTITIONS; partition++) {
            tasks[partition] = new TaskPlacement.TaskIdentity(1, partition, 1000L + partition);
        }
        // Executor mode leases a chiplet: in a directory of its own, so a real executor on this host is not disturbed.
        executor = HookedSparkExecutor.start(Map.of("spark.chiplet.mode", mode), () -> current);
    }

    @Benchmark
    public void startAndSucceed()
    {
        current = tasks[next];
        next = (next + 1) % PARTITIONS;
        executor.startAndSucceedTask();
    }

    @TearDown
    public void tearDown()
            throws IOException
    {
        executor.close();
    }
}
