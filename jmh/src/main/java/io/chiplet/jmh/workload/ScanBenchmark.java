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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/** Sequential scan with a filter that keeps a tenth of the rows, each worker scanning its own slice. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ScanBenchmark
        extends PlacedWorkloadBenchmark
{
    private long[][] columns;

    @Override
    protected void prepare()
    {
        int rows = trial.elementsPerWorker(Long.BYTES);
        columns = new long[trial.workers()][];
        trial.run(worker -> {
            columns[worker] = new SplittableRandom(worker).longs(rows, 0, 1000).toArray();
            return 0;
        });
    }

    @Benchmark
    public long scanFilter()
    {
        return trial.run(worker -> ScanFilter.sumWhere(columns[worker], 0, 100));
    }
}
