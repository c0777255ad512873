package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.Collection;
import java.util.List;

import static java.util.Objects.requireNonNull;

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

    /**
     * One kind of worker host as its workers report it: the physical cores of its usable chiplets
     * ({@link PartitionBasis#cores()}) and how many Trino workers share them.
     */
    public record WorkerHost(int cores, int workers)
    {
        public WorkerHost
        {
            if (cores < 1 || workers < 1) {
                throw new IllegalArgumentException("expected at least one core and one worker but was " + cores + " cores, " + workers + " workers");
            }
        }

        int coresPerWorker()
        {
            return Math.max(1, cores / workers);
        }
    }

    /** {@code task_concurrency} for {@code workersPerHost} workers sharing the physical cores of {@code topology}'s usable chiplets. */
    public static Advice.Setting taskConcurrency(Topology topology, CpuSet allowed, int workersPerHost)
    {
        if (workersPerHost < 1) {
            throw new IllegalArgumentException("workers per host must be positive: " + workersPerHost);
        }
        return taskConcurrency(List.of(new WorkerHost(PartitionBasis.of(topology, allowed).cores(), workersPerHost)));
    }

    /**
     * {@code task_concurrency} for a cluster whose worker hosts may differ. Trino applies one value to every worker, so
     * it is fitted to the worker with the fewest cores: a larger worker runs fewer drivers per task than it could but
     * takes more tasks at once, while a value above a small worker's cores would make its drivers contend.
     */
    public static Advice.Setting taskConcurrency(Collection<WorkerHost> hosts)
    {
        requireNonNull(hosts, "hosts is null");
        int coresPerWorker = hosts.stream().mapToInt(WorkerHost::coresPerWorker).min()
                .orElseThrow(() -> new IllegalArgumentException("no worker host to fit task_concurrency to"));
        long concurrency = Math.min(PartitionSizing.floorPowerOfTwo(coresPerWorker), MAX_TASK_CONCURRENCY);
        boolean mixed = hosts.stream().mapToInt(WorkerHost::coresPerWorker).distinct().count() > 1;
        return new Advice.Setting(TASK_CONCURRENCY, Long.toString(concurrency),
                "a power of two (Trino requires one) not above the " + coresPerWorker + " physical cores per worker"
                        + (mixed ? " on the smallest of the differing workers" : ""));
    }

    /** {@code min_hash_partition_count} and {@code max_hash_partition_count} for {@code workers} workers taking part. */
    public static List<Advice.Setting> hashPartitions(int workers)
    {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be positive: " + workers);
        }
        int min = Math.min(workers, TRINO_MIN_HASH_PARTITION_COUNT);
        long max = PartitionSizing.roundUpToMultiple(Math.max(TRINO_DEFAULT_MAX_HASH_PARTITIONS, workers), workers);
        return List.of(
                new Advice.Setting(MIN_HASH_PARTITION_COUNT, Integer.toString(min),
                        "one hash partition per worker, held to Trino's own minimum (" + TRINO_MIN_HASH_PARTITION_COUNT
                                + ") so a user's lower max_hash_partition_count never fails a query"),
                new Advice.Setting(MAX_HASH_PARTITION_COUNT, Long.toString(max),
                        "Trino's default scale (" + TRINO_DEFAULT_MAX_HASH_PARTITIONS + ") rounded up to a multiple of " + workers
                                + " workers, so partitions fall evenly on chiplets"));
    }
}
