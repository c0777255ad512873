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

/**
 * Hash group-by with a sum, each worker aggregating its own slice into its own table; one group per four rows, so
 * the table is as large as a third of the working set (about 24 bytes per row: key, value and table share).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GroupByBenchmark
        extends PlacedWorkloadBenchmark
{
    private long[][] keys;
    private long[][] values;
    private LongSumTable[] tables;

    @Override
    protected void prepare()
    {
        int rows = trial.elementsPerWorker(24);
        int groups = Math.max(1, rows / 4);
        keys = new long[trial.workers()][];
        values = new long[trial.workers()][];
        tables = new LongSumTable[trial.workers()];
        trial.run(worker -> {
            SplittableRandom random = new SplittableRandom(worker);
            keys[worker] = random.longs(rows, 0, groups).toArray();
            values[worker] = random.longs(rows, 0, 1000).toArray();
            tables[worker] = new LongSumTable(groups);
            return 0;
        });
    }

    @Benchmark
    public long aggregate()
    {
        return trial.run(worker -> GroupByAggregation.aggregate(keys[worker], values[worker], tables[worker]).checksum());
    }
}
