package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.List;

/**
 * The Trino session properties fitted to the chiplets: what {@code chiplet advise --engine trino} prints and what the
 * Trino coordinator's session defaults set, so the two cannot differ.
 */
public final class TrinoSessionSettings
{
    public static final String TASK_CONCURRENCY = "task_concurrency";
    public static final String MIN_HASH_PARTITION_COUNT = "min_hash_partition_count";
    public static final String MAX_HASH_PARTITION_COUNT = "max_hash_partition_count";
    /** Trino's own default {@code max_hash_partition_count}; kept as the scale, rounded to the workers. */
    static final int TRINO_DEFAULT_MAX_HASH_PARTITIONS = 100;
    /**
     * Trino's own {@code query.min-hash-partition-count}. Trino fails a query whose minimum exceeds its maximum, and a
     * user's {@code SET SESSION max_hash_partition_count} is invisible to whoever sets the minimum: a minimum no higher
     * than Trino's own keeps every maximum that works without the plugin working with it.
     */
    public static final int TRINO_MIN_HASH_PARTITION_COUNT = 4;
    /** Trino's largest useful task concurrency here: beyond it drivers only contend. */
    static final int MAX_TASK_CONCURRENCY = 64;

    private TrinoSessionSettings() {}

    /** {@code task_concurrency} for {@code workersPerHost} workers sharing the physical cores of {@code topology}'s usable chiplets. */
    public static Advice.Setting taskConcurrency(Topology topology, CpuSet allowed, int workersPerHost)
    {
        if (workersPerHost < 1) {
            throw new IllegalArgumentException("workers per host must be positive: " + workersPerHost);
        }
        int coresPerWorker = Math.max(1, PartitionBasis.of(topology, allowed).cores() / workersPerHost);
        long concurrency = Math.min(PartitionSizing.floorPowerOfTwo(coresPerWorker), MAX_TASK_CONCURRENCY);
        return new Advice.Setting(TASK_CONCURRENCY, Long.toString(concurrency),
                "the largest power of two (Trino requires one) not above the " + Advice.count(coresPerWorker, "physical core") + " per worker"
                        + (concurrency < coresPerWorker && concurrency == MAX_TASK_CONCURRENCY ? " and Trino's useful maximum " + MAX_TASK_CONCURRENCY : ""));
    }

    /** {@code min_hash_partition_count} and {@code max_hash_partition_count} for {@code workers} workers of the whole cluster taking part. */
    public static List<Advice.Setting> hashPartitions(int workers)
    {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be positive: " + workers);
        }
        int min = Math.min(workers, TRINO_MIN_HASH_PARTITION_COUNT);
        long max = PartitionSizing.roundUpToMultiple(Math.max(TRINO_DEFAULT_MAX_HASH_PARTITIONS, workers), workers);
        String minReason = workers < TRINO_MIN_HASH_PARTITION_COUNT
                ? "one hash partition per worker (" + Advice.count(workers, "worker") + "), below Trino's own default (" + TRINO_MIN_HASH_PARTITION_COUNT
                        + "), so a user's lower max_hash_partition_count never fails a query"
                : "Trino's own default (" + TRINO_MIN_HASH_PARTITION_COUNT + "), not one per worker (" + Advice.count(workers, "worker")
                        + "): a higher minimum would fail the queries of a user who lowers max_hash_partition_count below it";
        String maxReason = max == TRINO_DEFAULT_MAX_HASH_PARTITIONS
                ? "Trino's default (" + TRINO_DEFAULT_MAX_HASH_PARTITIONS + "), already a multiple of the cluster's " + Advice.count(workers, "worker")
                : workers > TRINO_DEFAULT_MAX_HASH_PARTITIONS
                ? "one per worker of the cluster's " + Advice.count(workers, "worker") + " (more than Trino's default " + TRINO_DEFAULT_MAX_HASH_PARTITIONS + ")"
                : "Trino's default (" + TRINO_DEFAULT_MAX_HASH_PARTITIONS + ") rounded up to " + max + ", a multiple of the cluster's "
                        + Advice.count(workers, "worker") + ", so partitions fall evenly on them";
        return List.of(
                new Advice.Setting(MIN_HASH_PARTITION_COUNT, Integer.toString(min), minReason),
                new Advice.Setting(MAX_HASH_PARTITION_COUNT, Long.toString(max), maxReason));
    }
}
