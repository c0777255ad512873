package io.chiplet.placement;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * How unevenly data falls into partitions. {@code maxOverMedian} reads as "the largest partition is N times a typical
 * one"; {@code gini} is 0 for equal partitions and approaches 1 when one partition holds everything.
 */
public record SkewAnalysis(int partitions, long totalBytes, long maxBytes, double medianBytes, double maxOverMedian, double gini)
{
    /** Above this max/median a plan should treat the largest partitions apart (the study's JCC-H skew, §4.5.3). */
    public static final double SKEWED_MAX_OVER_MEDIAN = 2.0;

    /**
     * @param partitionSizes bytes (or rows) per partition; none negative, at least one
     */
    public static SkewAnalysis of(long[] partitionSizes)
    {
        requireNonNull(partitionSizes, "partitionSizes is null");
        if (partitionSizes.length == 0) {
            throw new IllegalArgumentException("expected at least one partition size");
        }
        long[] sorted = partitionSizes.clone();
        Arrays.sort(sorted);
        if (sorted[0] < 0) {
            throw new IllegalArgumentException("partition sizes must not be negative: " + sorted[0]);
        }
        int n = sorted.length;
        long total = 0;
        double weighted = 0;
        for (int i = 0; i < n; i++) {
            total = Math.addExact(total, sorted[i]);
            weighted += (double) (i + 1) * sorted[i];
        }
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + (double) sorted[n / 2]) / 2;
        long max = sorted[n - 1];
        double maxOverMedian = median > 0 ? max / median : max > 0 ? Double.POSITIVE_INFINITY : 1.0;
        // Gini over the sorted sizes: G = 2 * sum(i * x_i) / (n * sum(x)) - (n + 1) / n, i from 1.
        double gini = total == 0 ? 0 : 2 * weighted / ((double) n * total) - (n + 1.0) / n;
        return new SkewAnalysis(n, total, max, median, maxOverMedian, Math.max(0, gini));
    }

    public boolean isSkewed()
    {
        return maxOverMedian >= SKEWED_MAX_OVER_MEDIAN;
    }
}
