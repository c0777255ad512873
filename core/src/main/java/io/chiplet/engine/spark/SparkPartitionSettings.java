package io.chiplet.engine.spark;

import io.chiplet.engine.AdvisedSetting;
import io.chiplet.placement.PartitionSizing;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The Spark settings {@link PartitionSizing} decides, as Spark reads them: what {@code chiplet advise --engine spark}
 * prints and what the Spark driver plugin applies, so the two cannot differ.
 */
public final class SparkPartitionSettings
{
    public static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
    public static final String DEFAULT_PARALLELISM = "spark.default.parallelism";
    public static final String ADVISORY_PARTITION_SIZE = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
    public static final String SKEW_THRESHOLD = "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes";
    /** Every key {@link #of} sets, in its order. */
    public static final List<String> KEYS = List.of(SHUFFLE_PARTITIONS, DEFAULT_PARALLELISM, ADVISORY_PARTITION_SIZE, SKEW_THRESHOLD);

    private SparkPartitionSettings() {}

    public static List<AdvisedSetting> of(PartitionSizing sizing)
    {
        requireNonNull(sizing, "sizing is null");
        return List.of(
                new AdvisedSetting(SHUFFLE_PARTITIONS, Integer.toString(sizing.partitions()), sizing.partitionsReason()),
                new AdvisedSetting(DEFAULT_PARALLELISM, Integer.toString(sizing.rddPartitions()), sizing.rddReason()),
                new AdvisedSetting(ADVISORY_PARTITION_SIZE, sparkBytes(sizing.targetBytes()), "AQE coalesces toward " + sizing.targetReason()),
                new AdvisedSetting(SKEW_THRESHOLD, sparkBytes(sizing.skewThresholdBytes()),
                        PartitionSizing.SKEW_FACTOR + " x the advisory size (Spark's own ratio, 256 MiB to 64 MiB): a partition that large is split"));
    }

    /** Spark's size syntax: the largest whole unit ({@code 4m}, {@code 1g}), else bytes with {@code b}. */
    public static String sparkBytes(long bytes)
    {
        String[] units = {"b", "k", "m", "g", "t"};
        int unit = 0;
        long value = bytes;
        while (unit < units.length - 1 && value >= 1024 && value % 1024 == 0) {
            value /= 1024;
            unit++;
        }
        return value + units[unit];
    }
}
