package io.chiplet.jmh.workload;

import java.util.Arrays;

/**
 * An inner equi-join of two long key columns that counts matching pairs: radix-partition both sides by hash,
 * then per partition build an open-addressing table of the build keys (key to multiplicity) and probe it. The
 * partitions are sized so that one partition's table stays in a core's L2, as in radix joins; the scatter passes
 * are the memory-bound part that placement affects. Scratch space is allocated once, so a measured run does not
 * allocate.
 */
public final class PartitionedHashJoin
{
    /** Build tuples per partition the partition count aims for: a 16 K-slot table, 256 KiB. */
    static final int TARGET_PARTITION_TUPLES = 8192;

    private final int partitionBits;
    private final long[] buildScratch;
    private final long[] probeScratch;
    private final int[] buildStarts;
    private final int[] probeStarts;
    private LongSumTable table;

    public PartitionedHashJoin(int maxBuild, int maxProbe)
    {
        this(maxBuild, maxProbe, partitionBitsFor(maxBuild));
    }

    public PartitionedHashJoin(int maxBuild, int maxProbe, int partitionBits)
    {
        if (maxBuild < 0 || maxProbe < 0 || partitionBits < 0 || partitionBits > 16) {
            throw new IllegalArgumentException("need non-negative sizes and 0-16 partition bits but got " + maxBuild + ", " + maxProbe + ", " + partitionBits);
        }
        this.partitionBits = partitionBits;
        buildScratch = new long[maxBuild];
        probeScratch = new long[maxProbe];
        buildStarts = new int[(1 << partitionBits) + 1];
        probeStarts = new int[(1 << partitionBits) + 1];
        table = new LongSumTable(Math.max(1, Math.min(maxBuild, 2 * TARGET_PARTITION_TUPLES)));
    }

    static int partitionBitsFor(int buildTuples)
    {
        int partitions = Math.max(1, buildTuples / TARGET_PARTITION_TUPLES);
        return Math.min(16, 32 - Integer.numberOfLeadingZeros(partitions - 1));
    }

    public int partitionBits()
    {
        return partitionBits;
    }

    /** The number of (build, probe) pairs with equal keys. */
    public long joinCount(long[] build, long[] probe)
    {
        if (build.length > buildScratch.length || probe.length > probeScratch.length) {
            throw new IllegalArgumentException("join of " + build.length + " x " + probe.length + " exceeds the sizes this join was made for");
        }
        partition(build, buildScratch, buildStarts);
        partition(probe, probeScratch, probeStarts);
        int partitions = 1 << partitionBits;
        long matches = 0;
        for (int p = 0; p < partitions; p++) {
            int buildFrom = buildStarts[p];
            int buildTo = buildStarts[p + 1];
            if (buildTo == buildFrom) {
                continue;
            }
            if (buildTo - buildFrom > table.maxEntries()) {
                // skewed data: a partition larger than planned; grows once, then later runs reuse it
                table = new LongSumTable(buildTo - buildFrom);
            }
            else {
                table.clear();
            }
            for (int i = buildFrom; i < buildTo; i++) {
                table.add(buildScratch[i], 1);
            }
            for (int i = probeStarts[p]; i < probeStarts[p + 1]; i++) {
                matches += table.get(probeScratch[i]);
            }
        }
        return matches;
    }

    /** A counting-sort scatter of {@code keys} into {@code out} by the top hash bits; {@code starts} gets the bounds. */
    private void partition(long[] keys, long[] out, int[] starts)
    {
        int partitions = 1 << partitionBits;
        Arrays.fill(starts, 0);
        for (long key : keys) {
            starts[partitionOf(key) + 1]++;
        }
        for (int p = 0; p < partitions; p++) {
            starts[p + 1] += starts[p];
        }
        int[] cursor = Arrays.copyOf(starts, partitions);
        for (long key : keys) {
            out[cursor[partitionOf(key)]++] = key;
        }
    }

    private int partitionOf(long key)
    {
        // the top bits, so that the table's slot (the low bits of the same hash) stays uniform within a partition
        return partitionBits == 0 ? 0 : (int) (Hashing.mix(key) >>> (64 - partitionBits));
    }
}
