package io.chiplet.jmh;

import io.chiplet.affinity.CpuLocation;
import io.chiplet.affinity.CurrentCpu;
import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.topology.CpuSet;
import net.openhft.affinity.Affinity;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Bind-and-restore round trips of the calling thread, and {@code getcpu}, through the binding API
 * ({@link ThreadBinder}) with the {@code ffm} pinning backend on the FFM path and with the {@code openhft} backend,
 * through OpenHFT Java-Thread-Affinity's own API (JNA), and through the bare syscalls in C in the same run
 * ({@link #cPinRestore}); {@link PinJnaBenchmark} is the JNA path (JDK 17 and 21).
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
    // The binding API's targets, one per CPU, made once as a plugin makes its slots' targets when it plans.
    private PreparedAffinity[] ffmTargets;
    private ThreadBinder ffmBinder;
    private PreparedAffinity[] openhftTargets;
    private ThreadBinder openhftBinder;

    @Setup
    public void setup()
    {
        ffmBinder = ThreadBinder.live("ffm");
        ffmTargets = oneCpuTargets(ffmBinder);
        openhftBinder = ThreadBinder.live("openhft");
        openhftTargets = oneCpuTargets(openhftBinder);
        // Load OpenHFT's JNA library outside the measurement.
        Affinity.getAffinity();
    }

    /** A target per allowed CPU, indexed by CPU. */
    static PreparedAffinity[] oneCpuTargets(ThreadBinder binder)
    {
        CpuSet allowed = binder.pinnable().cpus();
        PreparedAffinity[] targets = new PreparedAffinity[allowed.last() + 1];
        for (int cpu : allowed.toArray()) {
            targets[cpu] = binder.prepare(CpuSet.of(cpu), Optional.empty());
        }
        return targets;
    }

    /**
     * The binding API the plugins use, as the C baseline's round trip: the current CPU, then bind (read the mask, pin
     * to that CPU) and restore, with the target made beforehand and nothing allocated. The figure held to 1.1x of C.
     */
    @Benchmark
    public void ffmBindRestore()
    {
        ffmBinder.bindCurrentThread(ffmTargets[CurrentCpu.cpu()]).restore();
    }

    /** Round trips per call into the C baseline: one downcall spread over 100 round trips of about 2 µs. */
    static final int C_PIN_BATCH = 100;
    /** sched_getcpu calls per call into the C baseline. */
    static final int C_GETCPU_BATCH = 10_000;

    /**
     * The C baseline's round trip ({@code pin_restore} in {@code jmh/src/main/c/pin_baseline.c}), in this run: the same
     * load, the same forks and iterations as the Java paths, so their ratio is not the noise between two runs.
     */
    @Benchmark
    @OperationsPerInvocation(C_PIN_BATCH)
    public long cPinRestore(CBaseline c)
            throws Throwable
    {
        return (long) c.pinRestoreN.invokeExact((long) C_PIN_BATCH);
    }

    /** sched_getcpu from C, in this run. */
    @Benchmark
    @OperationsPerInvocation(C_GETCPU_BATCH)
    public long cSchedGetcpu(CBaseline c)
            throws Throwable
    {
        return (long) c.schedGetcpuN.invokeExact((long) C_GETCPU_BATCH);
    }

    /**
     * The C baseline as a library: {@code jmh/src/main/c/pin_baseline.c} (under the working directory, the project's
     * root, as {@code chiplet bench} runs) compiled with the first C compiler on {@code PATH}. Without one the C
     * benchmarks fail in their setup, saying so, and the others run.
     */
    @State(Scope.Benchmark)
    public static class CBaseline
    {
        MethodHandle pinRestoreN;
        MethodHandle schedGetcpuN;

        @Setup
        public void compile()
                throws IOException, InterruptedException
        {
            Path source = Path.of("jmh/src/main/c/pin_baseline.c").toAbsolutePath();
            Path compiler = NativeBaseline.compiler(Optional.ofNullable(System.getenv("PATH")).orElse(""))
                    .orElseThrow(() -> new IllegalStateException("no C compiler (cc, gcc or clang) on PATH for the C baseline"));
            Path library = Files.createTempDirectory("chiplet-pin-baseline").resolve("libpin_baseline.so");
            Process process = new ProcessBuilder(compiler.toString(), "-O2", "-shared", "-fPIC", "-DPIN_BASELINE_LIBRARY", "-o", library.toString(),
                    source.toString()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException("compiling " + source + " failed: " + output);
            }
            SymbolLookup baseline = SymbolLookup.libraryLookup(library, Arena.global());
            FunctionDescriptor longOfLong = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
            pinRestoreN = Linker.nativeLinker().downcallHandle(baseline.find("pin_restore_n").orElseThrow(), longOfLong);
            schedGetcpuN = Linker.nativeLinker().downcallHandle(baseline.find("sched_getcpu_n").orElseThrow(), longOfLong);
        }
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

    /** The binding API with the {@code openhft} pinning backend underneath, as {@link #ffmBindRestore}. */
    @Benchmark
    public void openhftBackendBindRestore()
    {
        openhftBinder.bindCurrentThread(openhftTargets[CurrentCpu.cpu()]).restore();
    }

    /** getcpu(2) through FFM: CPU and NUMA node. */
    @Benchmark
    public CpuLocation ffmGetcpu()
    {
        return CurrentCpu.location();
    }

    /** sched_getcpu through FFM (glibc answers from rseq or the vDSO, no syscall). */
    @Benchmark
    public int ffmSchedGetcpu()
    {
        return CurrentCpu.cpu();
    }

    @Benchmark
    public int openhftGetCpu()
    {
        return Affinity.getCpu();
    }
}
