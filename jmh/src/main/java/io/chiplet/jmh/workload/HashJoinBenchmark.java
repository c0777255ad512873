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
 * Partitioned hash join, build and probe, each worker joining its own slice (the shuffled partitions an engine's
 * join tasks receive). About half the probe keys find a match. The working set counts both inputs, the partition
 * scratch and the tables: about 56 bytes per build tuple with twice as many probe tuples.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HashJoinBenchmark
        extends PlacedWorkloadBenchmark
{
    private long[][] build;
    private long[][] probe;
    private PartitionedHashJoin[] joins;

    @Override
    protected void prepare()
    {
        int buildTuples = trial.elementsPerWorker(56);
        build = new long[trial.workers()][];
        probe = new long[trial.workers()][];
        joins = new PartitionedHashJoin[trial.workers()];
        trial.run(worker -> {
            SplittableRandom random = new SplittableRandom(worker);
            build[worker] = random.longs(buildTuples, 0, 2L * buildTuples).toArray();
            probe[worker] = random.longs(2L * buildTuples, 0, 2L * buildTuples).toArray();
            joins[worker] = new PartitionedHashJoin(buildTuples, 2 * buildTuples);
            return 0;
        });
    }

    @Benchmark
    public long buildAndProbe()
    {
        return trial.run(worker -> joins[worker].joinCount(build[worker], probe[worker]));
    }
}
