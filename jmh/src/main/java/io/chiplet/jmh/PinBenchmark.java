package io.chiplet.jmh;

import io.chiplet.affinity.CpuLocation;
import io.chiplet.affinity.PinnedThread;
import io.chiplet.affinity.SchedCalls;
import io.chiplet.affinity.SchedSyscalls;
import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.nativeio.NativePath;
import io.chiplet.topology.CpuSet;
import net.openhft.affinity.Affinity;
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

import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Pin-and-restore round trips of the calling thread, and {@code getcpu}, through the FFM boundary, through our JNA
 * path (JDK 17 and 21), through OpenHFT
 * Java-Thread-Affinity (JNA), to compare with the bare syscalls in C ({@code jmh/native-baseline.sh}).
 *
 * <p>Every round trip does the same four steps as the C baseline: read the current CPU, read the mask, pin to that
 * one CPU, restore the mask. Pinning to the CPU the thread is on means no migration: the figures are the cost of
 * the calls, not of moving a thread between CPUs (which the kernel charges the same whoever calls).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PinBenchmark
{
    private static final SchedCalls JNA = SchedCalls.forPath(new NativePath(NativePath.Kind.JNA, "benchmark"));

    private ThreadAffinity ffm;
    private ThreadAffinity openhftBackend;
    // The binding API's targets, one per CPU, made once as a plugin makes its slots' targets when it plans.
    private ThreadBinder.Target[] ffmTargets;
    private ThreadBinder ffmBinder;

    @Setup
    public void setup()
    {
        ffm = ThreadAffinity.live("ffm");
        openhftBackend = ThreadAffinity.live("openhft");
        ffmBinder = ThreadBinder.live("ffm");
        CpuSet allowed = ffmBinder.allowed().allowed();
        ffmTargets = new ThreadBinder.Target[allowed.last() + 1];
        for (int cpu : allowed.toArray()) {
            ffmTargets[cpu] = ffmBinder.target(CpuSet.of(cpu), Optional.empty());
        }
        // Load OpenHFT's JNA library outside the measurement.
        Affinity.getAffinity();
    }

    /** The project's API: allowed-CPU check, read, pin, restore on close. */
    @Benchmark
    public CpuSet ffmPinRestore()
    {
        try (PinnedThread pinned = ffm.pinCurrentThread(CpuSet.of(SchedSyscalls.currentCpu()))) {
            return pinned.previous();
        }
    }

    /**
     * The binding API the plugins use, as the C baseline's round trip: the current CPU, then bind (read the mask, pin
     * to that CPU) and restore, with the target made beforehand and nothing allocated. The figure held to 1.1x of C.
     */
    @Benchmark
    public void ffmBindRestore()
    {
        ffmBinder.bindCurrentThread(ffmTargets[SchedSyscalls.currentCpu()]).restore();
    }

    /** The FFM boundary alone: the three syscalls and sched_getcpu, no checks. */
    @Benchmark
    public CpuSet ffmRawPinRestore()
    {
        CpuSet previous = SchedSyscalls.getAffinity(0);
        SchedSyscalls.setAffinity(0, CpuSet.of(SchedSyscalls.currentCpu()));
        SchedSyscalls.setAffinity(0, previous);
        return previous;
    }

    /** The JNA path (what JDK 17 and 21 use) alone: the same calls as {@link #ffmRawPinRestore}, through direct mapping. */
    @Benchmark
    public CpuSet jnaRawPinRestore()
    {
        CpuSet previous = JNA.getAffinity(0);
        JNA.setAffinity(0, CpuSet.of(JNA.currentCpu()));
        JNA.setAffinity(0, previous);
        return previous;
    }

    /** sched_getcpu through the JNA path. */
    @Benchmark
    public int jnaSchedGetcpu()
    {
        return JNA.currentCpu();
    }

    /** OpenHFT's own API, as its users call it. */
    @Benchmark
    public BitSet openhftPinRestore()
    {
        BitSet previous = Affinity.getAffinity();
        BitSet one = new BitSet();
        one.set(Affinity.getCpu());
        Affinity.setAffinity(one);
        Affinity.setAffinity(previous);
        return previous;
    }

    /** The project's API with the OpenHFT backend underneath. */
    @Benchmark
    public CpuSet openhftBackendPinRestore()
    {
        try (PinnedThread pinned = openhftBackend.pinCurrentThread(CpuSet.of(SchedSyscalls.currentCpu()))) {
            return pinned.previous();
        }
    }

    /** getcpu(2) through FFM: CPU and NUMA node. */
    @Benchmark
    public CpuLocation ffmGetcpu()
    {
        return SchedSyscalls.getcpu();
    }

    /** sched_getcpu through FFM (glibc answers from rseq or the vDSO, no syscall). */
    @Benchmark
    public int ffmSchedGetcpu()
    {
        return SchedSyscalls.currentCpu();
    }

    @Benchmark
    public int openhftGetCpu()
    {
        return Affinity.getCpu();
    }
}
