package io.chiplet.engine.trino;

import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Wording;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.PartitionSizing;
import io.chiplet.placement.SkewHint;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

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
    /** A spread hint multiplies {@code task_concurrency} and the maximum hash partitions by this; consolidate divides by it. */
    static final int SKEW_FACTOR = 2;

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

        /**
         * The workers of one host from the cores each reports: they report the same machine, so the fewest cores any
         * of them sees (a narrower cpuset, a lease) is what they share.
         *
         * @throws IllegalArgumentException when no worker reported
         */
        public static WorkerHost sharedBy(Collection<Integer> reportedCores)
        {
            requireNonNull(reportedCores, "reportedCores is null");
            int cores = reportedCores.stream().mapToInt(Integer::intValue).min()
                    .orElseThrow(() -> new IllegalArgumentException("no worker of the host reported its cores"));
            return new WorkerHost(cores, reportedCores.size());
        }

        int coresPerWorker()
        {
            return Math.max(1, cores / workers);
        }
    }

    /**
     * A fitted {@code task_concurrency} and why: the value as a number, for the plugin's session defaults and the
     * skew hint, and as the setting {@code chiplet advise} prints.
     */
    public record TaskConcurrency(int value, String reason)
    {
        public TaskConcurrency
        {
            if (value < 1) {
                throw new IllegalArgumentException("task concurrency must be positive: " + value);
            }
            requireNonNull(reason, "reason is null");
        }

        public AdvisedSetting setting()
        {
            return new AdvisedSetting(TASK_CONCURRENCY, Integer.toString(value), reason);
        }
    }

    /** {@code task_concurrency} for {@code workersPerHost} workers sharing the physical cores of {@code topology}'s usable chiplets. */
    public static TaskConcurrency taskConcurrency(Topology topology, CpuSet allowed, int workersPerHost)
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
    public static TaskConcurrency taskConcurrency(Collection<WorkerHost> hosts)
    {
        requireNonNull(hosts, "hosts is null");
        int coresPerWorker = hosts.stream().mapToInt(WorkerHost::coresPerWorker).min()
                .orElseThrow(() -> new IllegalArgumentException("no worker host to fit task_concurrency to"));
        int concurrency = taskConcurrency(coresPerWorker);
        boolean mixed = hosts.stream().mapToInt(WorkerHost::coresPerWorker).distinct().count() > 1;
        return new TaskConcurrency(concurrency,
                "the largest power of two (Trino requires one) not above the " + Wording.count(coresPerWorker, "physical core") + " per worker"
                        + (mixed ? " on the smallest of the differing workers" : "")
                        + (concurrency < coresPerWorker && concurrency == MAX_TASK_CONCURRENCY ? " and Trino's useful maximum " + MAX_TASK_CONCURRENCY : ""));
    }

    /** {@code task_concurrency} for workers of {@code coresPerWorker} physical cores: a power of two (Trino requires one), at most {@link #MAX_TASK_CONCURRENCY}. */
    public static int taskConcurrency(int coresPerWorker)
    {
        if (coresPerWorker < 1) {
            throw new IllegalArgumentException("cores per worker must be positive: " + coresPerWorker);
        }
        return (int) Math.min(PartitionSizing.floorPowerOfTwo(coresPerWorker), MAX_TASK_CONCURRENCY);
    }

    /**
     * The session values a skew hint turns fitted ones into. Spread: twice the drivers per task (more, smaller local
     * partitions) and twice the maximum hash partitions, rounded up to a multiple of the workers; consolidate: half the
     * drivers (at least one) and a minimum of one hash partition; none: the fitted values.
     *
     * @param hashPartitions the fitted counts, empty where the number of workers is not known
     */
    public static HintedValues withSkewHint(SkewHint hint, int taskConcurrency, Optional<HashPartitions> hashPartitions)
    {
        requireNonNull(hint, "hint is null");
        requireNonNull(hashPartitions, "hashPartitions is null");
        if (taskConcurrency < 1) {
            throw new IllegalArgumentException("task concurrency must be positive: " + taskConcurrency);
        }
        int concurrency = switch (hint) {
            case SPREAD -> taskConcurrency * SKEW_FACTOR;
            case CONSOLIDATE -> Math.max(1, taskConcurrency / SKEW_FACTOR);
            case NONE -> taskConcurrency;
        };
        Optional<HashPartitions> partitions = hashPartitions.map(fitted -> switch (hint) {
            case SPREAD -> new HashPartitions(fitted.min(),
                    Math.min(Integer.MAX_VALUE, PartitionSizing.roundUpToMultiple((long) SKEW_FACTOR * fitted.max(), fitted.workers())), fitted.workers());
            case CONSOLIDATE -> new HashPartitions(1, fitted.max(), fitted.workers());
            case NONE -> fitted;
        });
        return new HintedValues(hint, concurrency, partitions);
    }

    /** Hash partition counts fitted to {@code workers} workers. */
    public record HashPartitions(int min, long max, int workers)
    {
        public HashPartitions
        {
            if (workers < 1 || min < 1 || max < min) {
                throw new IllegalArgumentException("expected 1 <= min <= max and workers >= 1 but was " + min + ", " + max + ", " + workers);
            }
        }

        /** The counts for {@code workers} workers of the whole cluster: the numbers {@link #hashPartitions} prints with their reasons. */
        public static HashPartitions of(int workers)
        {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be positive: " + workers);
            }
            return new HashPartitions(Math.min(workers, TRINO_MIN_HASH_PARTITION_COUNT),
                    PartitionSizing.roundUpToMultiple(Math.max(TRINO_DEFAULT_MAX_HASH_PARTITIONS, workers), workers), workers);
        }
    }

    /** What a skew hint makes of the fitted session values. */
    public record HintedValues(SkewHint hint, int taskConcurrency, Optional<HashPartitions> hashPartitions)
    {
        public HintedValues
        {
            requireNonNull(hint, "hint is null");
            requireNonNull(hashPartitions, "hashPartitions is null");
        }
    }

    /**
     * The advice rows for what each skew hint turns the fitted values into: what the coordinator's session defaults
     * set for queries whose recent runs were skewed (spread) or spread too thin (consolidate).
     */
    public static List<AdvisedSetting> skewHintSettings(int taskConcurrency, Optional<HashPartitions> hashPartitions)
    {
        List<AdvisedSetting> settings = new ArrayList<>();
        for (SkewHint hint : List.of(SkewHint.SPREAD, SkewHint.CONSOLIDATE)) {
            HintedValues hinted = withSkewHint(hint, taskConcurrency, hashPartitions);
            String why = hint == SkewHint.SPREAD
                    ? "a query shape whose recent runs were skewed: twice the drivers per task and twice the hash partitions (a multiple of the workers)"
                    : "a query shape whose recent runs were spread too thin: half the drivers per task (at least 1) and a minimum of 1 hash partition";
            StringBuilder value = new StringBuilder(TASK_CONCURRENCY + "=" + hinted.taskConcurrency());
            hinted.hashPartitions().ifPresent(partitions -> value.append(", ").append(MIN_HASH_PARTITION_COUNT).append('=').append(partitions.min())
                    .append(", ").append(MAX_HASH_PARTITION_COUNT).append('=').append(partitions.max()));
            settings.add(new AdvisedSetting("skew hint " + hint.configName(), value.toString(), why));
        }
        return List.copyOf(settings);
    }

    /** {@code min_hash_partition_count} and {@code max_hash_partition_count} for {@code workers} workers of the whole cluster taking part. */
    public static List<AdvisedSetting> hashPartitions(int workers)
    {
        HashPartitions counts = HashPartitions.of(workers);
        int min = counts.min();
        long max = counts.max();
        String minReason = workers < TRINO_MIN_HASH_PARTITION_COUNT
                ? "one hash partition per worker (" + Wording.count(workers, "worker") + "), below Trino's own default (" + TRINO_MIN_HASH_PARTITION_COUNT
                        + "), so a user's lower max_hash_partition_count never fails a query"
                : "Trino's own default (" + TRINO_MIN_HASH_PARTITION_COUNT + "), not one per worker (" + Wording.count(workers, "worker")
                        + "): a higher minimum would fail the queries of a user who lowers max_hash_partition_count below it";
        String maxReason = max == TRINO_DEFAULT_MAX_HASH_PARTITIONS
                ? "Trino's default (" + TRINO_DEFAULT_MAX_HASH_PARTITIONS + "), already a multiple of the cluster's " + Wording.count(workers, "worker")
                : workers > TRINO_DEFAULT_MAX_HASH_PARTITIONS
                ? "one per worker of the cluster's " + Wording.count(workers, "worker") + " (more than Trino's default " + TRINO_DEFAULT_MAX_HASH_PARTITIONS + ")"
                : "Trino's default (" + TRINO_DEFAULT_MAX_HASH_PARTITIONS + ") rounded up to " + max + ", a multiple of the cluster's "
                        + Wording.count(workers, "worker") + ", so partitions fall evenly on them";
        return List.of(
                new AdvisedSetting(MIN_HASH_PARTITION_COUNT, Integer.toString(min), minReason),
                new AdvisedSetting(MAX_HASH_PARTITION_COUNT, Long.toString(max), maxReason));
    }
}
