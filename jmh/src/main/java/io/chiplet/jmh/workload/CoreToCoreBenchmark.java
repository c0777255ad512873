package io.chiplet.jmh.workload;

import io.chiplet.placement.WorkerPlacement;
import io.chiplet.topology.CpuSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Core-to-core latency (the OLAP study §2.3): two threads pinned to the two CPUs of {@code cpuPair} hand a flag back
 * and forth with compare-and-swap. One {@code ping} operation is a full round trip (ping's CAS, pong sees it and
 * answers, ping sees the answer); the one-way latency is half of it. {@code BenchSuite} sets {@code cpuPair} to
 * every pair it wants in the matrix ({@link CpuPair#plan}).
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class CoreToCoreBenchmark
{
    private final AtomicBoolean flag = new AtomicBoolean();

    /** Binds each of the group's two threads to its one CPU of the pair, on that thread, before the trial (memory left alone). */
    @State(Scope.Thread)
    public static class PinnedToPair
    {
        @Param("0:1")
        public String cpuPair;

        @Setup(Level.Trial)
        public void bind(ThreadParams threads)
        {
            CpuPair pair = CpuPair.parse(cpuPair);
            int index = threads.getGroupThreadIndex();
            int cpu = index == 0 ? pair.first() : pair.second();
            BenchWiring.binder().bind(new WorkerPlacement(index, OptionalInt.empty(), Optional.of(CpuSet.of(cpu)), OptionalInt.empty()));
        }
    }

    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public void ping(Control control, PinnedToPair pinned)
    {
        // stopMeasurement lets the loop end when the partner thread has already left the iteration
        while (!control.stopMeasurement && !flag.compareAndSet(false, true)) {
            // spin: the latency is the point, so no Thread.onSpinWait() pause
        }
    }

    @Benchmark
    @Group("pingPong")
    @GroupThreads(1)
    public void pong(Control control, PinnedToPair pinned)
    {
        while (!control.stopMeasurement && !flag.compareAndSet(true, false)) {
            // spin, as in ping
        }
    }
}
