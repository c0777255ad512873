package io.chiplet.spark.driver;

import io.chiplet.placement.Advice.Setting;
import io.chiplet.spark.topology.ChipletSummary;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Spark settings sized to the chiplets, each with the reason a user reads in the driver log. Pure: a summary in,
 * settings out.
 *
 * <ul>
 * <li>Partition counts are a multiple of the chiplets, so every chiplet runs the same number of task waves and
 * none idles through the last one. Shuffles get three tasks per core (Spark's tuning guide suggests two to three;
 * AQE coalesces small ones away), RDD parallelism two.</li>
 * <li>AQE's advisory partition size is one chiplet's L3: a reduce task's input then streams through the cache its
 * chiplet shares instead of spilling to memory across the fabric. Spark's default (64 MiB) exceeds every current
 * chiplet's L3. A floor keeps tiny caches from producing a storm of tiny tasks.</li>
 * <li>The skew-join threshold keeps Spark's own ratio to the advisory size (256 MiB to 64 MiB): a partition four
 * chiplet-L3s large is split.</li>
 * </ul>
 */
public final class SparkPartitionAdvice
{
    public static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
    public static final String DEFAULT_PARALLELISM = "spark.default.parallelism";
    public static final String ADVISORY_PARTITION_SIZE = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
    public static final String SKEW_THRESHOLD = "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes";

    static final int SHUFFLE_TASKS_PER_CORE = 3;
    static final int RDD_TASKS_PER_CORE = 2;
    static final long MIN_ADVISORY_BYTES = 4L << 20;
    static final int SKEW_FACTOR = 4;

    private SparkPartitionAdvice() {}

    public static List<Setting> advise(ChipletSummary summary)
    {
        requireNonNull(summary, "summary is null");
        List<Setting> settings = new ArrayList<>();
        int chiplets = summary.chiplets();
        int cores = summary.cores();
        settings.add(new Setting(
                SHUFFLE_PARTITIONS,
                Integer.toString(cores * SHUFFLE_TASKS_PER_CORE),
                "%d chiplets x %d cores x %d tasks per core: every chiplet runs the same number of waves".formatted(chiplets, summary.coresPerChiplet(), SHUFFLE_TASKS_PER_CORE)));
        settings.add(new Setting(
                DEFAULT_PARALLELISM,
                Integer.toString(cores * RDD_TASKS_PER_CORE),
                "%d chiplets x %d cores x %d tasks per core".formatted(chiplets, summary.coresPerChiplet(), RDD_TASKS_PER_CORE)));

        long l3 = summary.l3BytesPerChiplet();
        if (l3 > 0) {
            long advisory = Math.max(l3, MIN_ADVISORY_BYTES);
            String basis = advisory == l3
                    ? "one chiplet's L3 (%s), so a reduce task's input fits the cache its chiplet shares".formatted(bytes(l3))
                    : "the floor of %s, as one chiplet's L3 (%s) would make tasks too small to pay their overhead".formatted(bytes(MIN_ADVISORY_BYTES), bytes(l3));
            settings.add(new Setting(ADVISORY_PARTITION_SIZE, Long.toString(advisory), basis));
            settings.add(new Setting(
                    SKEW_THRESHOLD,
                    Long.toString(advisory * SKEW_FACTOR),
                    "%d x the advisory size (Spark's own ratio): a partition that large is split across chiplets".formatted(SKEW_FACTOR)));
        }
        return List.copyOf(settings);
    }

    static String bytes(long bytes)
    {
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }
}
