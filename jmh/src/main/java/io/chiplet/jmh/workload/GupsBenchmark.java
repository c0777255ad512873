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

import java.util.concurrent.TimeUnit;

/**
 * GUPS random access over one table the workers share (so with chiplet placements, updates cross chiplets). One
 * operation is {@value #UPDATES_PER_OP} updates in all, whatever the table size: giga-updates per second are
 * {@code score * UPDATES_PER_OP / 1e9}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GupsBenchmark
        extends PlacedWorkloadBenchmark
{
    public static final int UPDATES_PER_OP = 1 << 22;

    private long[] table;
    private long[] streams;

    @Override
    protected void prepare()
    {
        int length = Integer.highestOneBit(trial.elementsPerWorker(Long.BYTES) * trial.workers());
        streams = new long[trial.workers()];
        for (int worker = 0; worker < streams.length; worker++) {
            streams[worker] = Gups.seed(worker);
        }
        table = new long[length];
        for (int i = 0; i < length; i++) {
            table[i] = i;
        }
    }

    @Benchmark
    public long randomAccess()
    {
        long updates = UPDATES_PER_OP / trial.workers();
        return trial.run(worker -> {
            // each worker continues its own generator stream; streams[worker] is only touched by that worker
            streams[worker] = Gups.update(table, streams[worker], updates);
            return streams[worker];
        });
    }
}
