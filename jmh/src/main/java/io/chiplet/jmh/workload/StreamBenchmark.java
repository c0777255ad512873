package io.chiplet.jmh.workload;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * STREAM copy and triad (the OLAP study §2.5 and §4.4, CHARM Fig. 5). One operation is one pass of every worker
 * over its slice; the working set counts the three arrays a, b and c (copy touches two of them).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StreamBenchmark
        extends PlacedWorkloadBenchmark
{
    private double[][] a;
    private double[][] b;
    private double[][] c;

    @Override
    protected void prepare()
    {
        int n = trial.elementsPerWorker(3 * Double.BYTES);
        a = new double[trial.workers()][];
        b = new double[trial.workers()][];
        c = new double[trial.workers()][];
        // each worker allocates and first-touches its own arrays, so their pages are local to it
        trial.run(worker -> {
            a[worker] = new double[n];
            b[worker] = new double[n];
            c[worker] = new double[n];
            Arrays.fill(a[worker], 1.0);
            Arrays.fill(b[worker], 2.0);
            Arrays.fill(c[worker], 0.5);
            return 0;
        });
    }

    @Benchmark
    public long copy()
    {
        return trial.run(worker -> StreamKernels.copy(a[worker], c[worker]));
    }

    @Benchmark
    public long triad()
    {
        return trial.run(worker -> StreamKernels.triad(a[worker], b[worker], c[worker], 3.0));
    }
}
