package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Shuffle partition sizing for the chiplets taking part; the one rule both {@code chiplet advise} and the Spark
 * driver plugin apply (docs/placement.md, "One rule where the copies disagreed").
 *
 * <ul>
 * <li>Target size: one core's share of its chiplet's L3, so a task's partition stays in cache while the chiplet's
 * other cores work on theirs (study §4.4: the chiplet's share of the L3 against the working set; CHARM §4.3). Never
 * below 1 MiB (Spark's own smallest coalesced partition, {@code coalescePartitions.minPartitionSize}) nor above
 * 64 MiB (Spark's default advisory size; larger only loses locality).</li>
 * <li>Counts: three shuffle partitions and two RDD partitions per core (Spark's tuning guide: two to three tasks per
 * core), or the data over the target where it is known and more; a multiple of the chiplets, so every chiplet runs
 * the same number of waves (§4.5.1: balance is best when workers equal chiplets). AQE coalesces surplus shuffle
 * partitions but never adds any, so the count errs high; RDD stages have no AQE and get the lower end.</li>
 * <li>Skew threshold: Spark's own ratio to the advisory size (256 MiB to 64 MiB).</li>
 * </ul>
 *
 * @param partitions shuffle partitions
 * @param rddPartitions RDD (default) parallelism
 * @param targetBytes the partition size aimed at (a power of two within the bounds)
 * @param skewThresholdBytes a partition this large is split
 */
public record PartitionSizing(int partitions, int rddPartitions, long targetBytes, long skewThresholdBytes, PartitionBasis basis,
        String partitionsReason, String rddReason, String targetReason)
{
    /** Spark's {@code spark.sql.adaptive.coalescePartitions.minPartitionSize}: below it a task's overhead outweighs cache residency. */
    public static final long MIN_TARGET_BYTES = 1L << 20;
    /** Spark's own default advisory size; larger targets only lose locality. */
    public static final long MAX_TARGET_BYTES = 64L << 20;
    /** Far beyond what a scheduler handles well; counts are capped here and kept a multiple of the chiplets. */
    public static final int MAX_PARTITIONS = 100_000;
    static final int SHUFFLE_TASKS_PER_CORE = 3;
    static final int RDD_TASKS_PER_CORE = 2;
    /** A partition this many times the advisory size is skewed: Spark's own ratio (256 MiB to 64 MiB). */
    public static final int SKEW_FACTOR = 4;

    public PartitionSizing
    {
        requireNonNull(basis, "basis is null");
        requireNonNull(partitionsReason, "partitionsReason is null");
        requireNonNull(rddReason, "rddReason is null");
        requireNonNull(targetReason, "targetReason is null");
    }

    public static PartitionSizing of(Topology topology, CpuSet allowed, OptionalLong dataBytes)
    {
        return of(PartitionBasis.of(topology, allowed), dataBytes);
    }

    /**
     * @param dataBytes the data a job shuffles, when known
     */
    public static PartitionSizing of(PartitionBasis basis, OptionalLong dataBytes)
    {
        requireNonNull(basis, "basis is null");
        requireNonNull(dataBytes, "dataBytes is null");
        int chiplets = basis.chiplets();
        int cores = basis.cores();
        long perCoreL3 = basis.coreL3Bytes();
        long target = perCoreL3 == 0 ? MAX_TARGET_BYTES : Math.max(MIN_TARGET_BYTES, Math.min(PartitionSizing.floorPowerOfTwo(perCoreL3), MAX_TARGET_BYTES));
        String targetReason = perCoreL3 == 0
                ? "no L3 size known, so Spark's " + Bytes.format(target) + " default"
                : Bytes.format(target) + " per partition from one core's share of its chiplet's L3 (" + Bytes.format(perCoreL3) + ")"
                        + (target == MIN_TARGET_BYTES && perCoreL3 < MIN_TARGET_BYTES ? ", held to Spark's 1 MiB minimum partition" : "");
        OptionalLong fromData = dataBytes.isPresent() ? OptionalLong.of(ceilDiv(dataBytes.getAsLong(), target)) : OptionalLong.empty();
        int partitions = count(SHUFFLE_TASKS_PER_CORE, basis, fromData);
        int rddPartitions = count(RDD_TASKS_PER_CORE, basis, fromData);
        return new PartitionSizing(partitions, rddPartitions, target, target * SKEW_FACTOR, basis,
                countReason(partitions, SHUFFLE_TASKS_PER_CORE, basis, dataBytes, fromData) + "; AQE coalesces what turns out small",
                countReason(rddPartitions, RDD_TASKS_PER_CORE, basis, dataBytes, fromData) + "; RDD stages have no AQE to coalesce them",
                targetReason);
    }

    /** How {@code count} came about, with every number in it the one that produced it. */
    private static String countReason(int count, int perCore, PartitionBasis basis, OptionalLong dataBytes, OptionalLong fromData)
    {
        long perCoreCount = (long) perCore * basis.cores();
        String reason = perCore + " per core (" + basis.cores() + (basis.cores() == 1 ? " core" : " cores") + ")";
        long wanted = perCoreCount;
        if (fromData.isPresent()) {
            reason = fromData.getAsLong() >= perCoreCount
                    ? Bytes.format(dataBytes.getAsLong()) + " / the target (" + fromData.getAsLong() + "), more than " + reason + " (" + perCoreCount + ")"
                    : reason + ", more than " + Bytes.format(dataBytes.getAsLong()) + " / the target (" + fromData.getAsLong() + ")";
            wanted = Math.max(perCoreCount, fromData.getAsLong());
        }
        if (count < wanted) {
            reason += ", held to at most " + count;
        }
        else if (count > wanted) {
            reason += " = " + wanted + ", rounded up to a multiple of " + basis.chiplets() + " chiplets so each runs the same number of waves";
        }
        else if (basis.chiplets() > 1) {
            reason += ", a multiple of " + basis.chiplets() + " chiplets so each runs the same number of waves";
        }
        return count + " = " + reason;
    }

    private static int count(int perCore, PartitionBasis basis, OptionalLong fromData)
    {
        long wanted = Math.max((long) perCore * basis.cores(), fromData.orElse(0));
        return (int) Math.min(roundUpToMultiple(wanted, basis.chiplets()), MAX_PARTITIONS / basis.chiplets() * (long) basis.chiplets());
    }

    public int chiplets()
    {
        return basis.chiplets();
    }

    public int cores()
    {
        return basis.cores();
    }

    public static long roundUpToMultiple(long value, long multiple)
    {
        if (multiple < 1 || value < 0) {
            throw new IllegalArgumentException("expected a non-negative value and a positive multiple");
        }
        return ceilDiv(value, multiple) * multiple;
    }

    public static long ceilDiv(long value, long divisor)
    {
        return -Math.floorDiv(-value, divisor);
    }

    /** The largest power of two not above {@code value} (1 for values below 2). */
    public static long floorPowerOfTwo(long value)
    {
        return value < 2 ? 1 : Long.highestOneBit(value);
    }

    /** The smallest power of two not below {@code value} (1 for values below 2). */
    public static long ceilPowerOfTwo(long value)
    {
        if (value > 1L << 62) {
            throw new IllegalArgumentException("no long power of two is at least " + value);
        }
        return value < 2 ? 1 : Long.highestOneBit(value - 1) << 1;
    }
}
