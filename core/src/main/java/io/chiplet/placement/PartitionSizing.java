package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Shuffle partition sizing for the chiplets taking part. The target size is one core's share of its chiplet's L3,
 * so a task's partition stays in cache while the chiplet's other cores work on theirs (study §4.4, CHARM §4.3); the
 * count is a multiple of the chiplets so every chiplet gets the same number of partitions (§4.5.1: balance is best
 * when workers equal chiplets).
 *
 * @param partitions the partition count: a multiple of {@code chiplets}, at least one per allowed core
 * @param targetBytes the partition size aimed at (a power of two within the bounds)
 * @param reason how the two were reached
 */
public record PartitionSizing(int partitions, long targetBytes, int chiplets, int cores, String reason)
{
    /** Below this a partition's per-task overhead outweighs cache residency. */
    public static final long MIN_TARGET_BYTES = 1L << 20;
    /** Spark's own default advisory size; larger targets only lose locality. */
    public static final long MAX_TARGET_BYTES = 64L << 20;
    /** Far beyond what a scheduler handles well; counts are capped here and kept a multiple of the chiplets. */
    public static final int MAX_PARTITIONS = 100_000;

    public PartitionSizing
    {
        requireNonNull(reason, "reason is null");
    }

    public static PartitionSizing of(Topology topology, CpuSet allowed, OptionalLong dataBytes)
    {
        requireNonNull(dataBytes, "dataBytes is null");
        UsableTopology usable = UsableTopology.of(topology, allowed);
        int chiplets = usable.localOrder().size();
        int cores = usable.physicalCores();
        long perCoreL3 = usable.localOrder().stream()
                .filter(chiplet -> chiplet.chiplet().l3Bytes() > 0)
                .mapToLong(chiplet -> chiplet.chiplet().l3Bytes() / chiplet.physicalCores())
                .min()
                .orElse(0);
        long target = perCoreL3 == 0 ? MAX_TARGET_BYTES : Math.max(MIN_TARGET_BYTES, Math.min(floorPowerOfTwo(perCoreL3), MAX_TARGET_BYTES));
        String targetReason = perCoreL3 == 0
                ? "no L3 size known, so the " + Bytes.format(target) + " default"
                : Bytes.format(target) + " per partition from one core's L3 share (" + Bytes.format(perCoreL3) + ")";
        long wanted = dataBytes.isPresent() ? Math.max(cores, ceilDiv(dataBytes.getAsLong(), target)) : cores;
        int partitions = (int) Math.min(roundUpToMultiple(wanted, chiplets), MAX_PARTITIONS / chiplets * (long) chiplets);
        String countReason = dataBytes.isPresent()
                ? Bytes.format(dataBytes.getAsLong()) + " / target, at least one per core (" + cores + ")"
                : "one per core (" + cores + ") as the data size is unknown";
        return new PartitionSizing(partitions, target, chiplets, cores,
                targetReason + "; " + partitions + " partitions = " + countReason + ", rounded up to a multiple of " + chiplets + " chiplets");
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
