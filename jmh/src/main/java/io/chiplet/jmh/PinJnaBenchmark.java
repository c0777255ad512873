package io.chiplet.jmh;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.CurrentCpu;
import io.chiplet.affinity.ThreadBinder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * {@link PinBenchmark}'s binding round trip and {@code sched_getcpu} on the JNA path, which JDK 17 and 21 use: the fork
 * chooses it with {@code -Dchiplet.native=jna}, as those JVMs would by themselves.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dchiplet.native=jna"})
public class PinJnaBenchmark
{
    private PreparedAffinity[] targets;
    private ThreadBinder binder;

    @Setup
    public void setup()
    {
        // The ffm pinning backend is our own syscalls, here through the JNA native path the fork chose.
        binder = ThreadBinder.live("ffm");
        targets = PinBenchmark.oneCpuTargets(binder);
    }

    /** As {@link PinBenchmark#ffmBindRestore}, through JNA direct mapping. */
    @Benchmark
    public void jnaBindRestore()
    {
        binder.bindCurrentThread(targets[CurrentCpu.cpu()]).restore();
    }

    /** sched_getcpu through JNA. */
    @Benchmark
    public int jnaSchedGetcpu()
    {
        return CurrentCpu.cpu();
    }
}
