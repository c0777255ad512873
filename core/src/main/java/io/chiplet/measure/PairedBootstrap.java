package io.chiplet.measure;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static java.util.Objects.requireNonNull;

/**
 * The paired geometric-mean ratio of timings with and without the plugin, with a percentile bootstrap confidence
 * interval. Each group (a query) weighs the same however long it runs: its figure is the mean log ratio of its pairs
 * (its rounds), and the overall figure the mean of the groups'. The bootstrap resamples at both levels, the groups
 * with replacement and then, within each group drawn, its pairs with replacement, so the interval carries both the
 * spread between queries and the round-to-round noise of this machine. Seeded: the same timings give the same
 * interval.
 */
public final class PairedBootstrap
{
    public static final int DEFAULT_RESAMPLES = 10_000;
    public static final double DEFAULT_CONFIDENCE = 0.95;
    public static final long DEFAULT_SEED = 0x5eed_c41e_7L;

    private final int resamples;
    private final double confidence;
    private final long seed;

    public PairedBootstrap(int resamples, double confidence, long seed)
    {
        if (resamples < 100) {
            throw new IllegalArgumentException("expected at least 100 bootstrap resamples, got " + resamples);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("expected a confidence between 0 and 1, got " + confidence);
        }
        this.resamples = resamples;
        this.confidence = confidence;
        this.seed = seed;
    }

    /** The seed of the resampling: the same seed, the same interval. */
    public long seed()
    {
        return seed;
    }

    /** 10 000 resamples, 95 %, a fixed seed. */
    public static PairedBootstrap standard()
    {
        return new PairedBootstrap(DEFAULT_RESAMPLES, DEFAULT_CONFIDENCE, DEFAULT_SEED);
    }

    /**
     * @param groups per group (query), its pairs (rounds); every group needs at least one
     */
    public RatioEstimate estimate(List<List<TimedPair>> groups)
    {
        requireNonNull(groups, "groups is null");
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("expected at least one group of timings");
        }
        double[][] logs = new double[groups.size()][];
        int pairs = 0;
        double squares = 0;
        for (int g = 0; g < logs.length; g++) {
            List<TimedPair> group = requireNonNull(groups.get(g), "group is null");
            if (group.isEmpty()) {
                throw new IllegalArgumentException("group " + (g + 1) + " has no timings");
            }
            logs[g] = group.stream().mapToDouble(TimedPair::logRatio).toArray();
            double mean = mean(logs[g]);
            for (double log : logs[g]) {
                squares += (log - mean) * (log - mean);
            }
            pairs += logs[g].length;
        }
        // Deviations around each group's own mean: the round-to-round noise, not the differences between queries.
        int freedom = pairs - logs.length;
        double spread = freedom == 0 ? 0 : Math.expm1(Math.sqrt(squares / freedom));

        SplittableRandom random = new SplittableRandom(seed);
        double[] statistics = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            double sum = 0;
            for (int g = 0; g < logs.length; g++) {
                double[] group = logs[random.nextInt(logs.length)];
                double groupSum = 0;
                for (int p = 0; p < group.length; p++) {
                    groupSum += group[random.nextInt(group.length)];
                }
                sum += groupSum / group.length;
            }
            statistics[r] = sum / logs.length;
        }
        Arrays.sort(statistics);
        double tail = (1 - confidence) / 2;
        double point = 0;
        for (double[] group : logs) {
            point += mean(group);
        }
        point /= logs.length;
        // The percentile interval always holds the point estimate only in the limit; clamp so it is never printed outside.
        double low = Math.min(point, quantile(statistics, tail));
        double high = Math.max(point, quantile(statistics, 1 - tail));
        return new RatioEstimate(Math.exp(point), Math.exp(low), Math.exp(high), confidence, spread, logs.length, pairs, resamples);
    }

    private static double mean(double[] values)
    {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return sum / values.length;
    }

    /** Linear interpolation between the order statistics around {@code q}. */
    private static double quantile(double[] sorted, double q)
    {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    }
}
