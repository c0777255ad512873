package io.chiplet.measure;

/**
 * A paired geometric-mean ratio (with over without: below 1 the plugin was faster) and its bootstrap confidence
 * interval.
 *
 * @param ratio the geometric mean over the groups (queries) of each group's geometric-mean pair ratio
 * @param low the interval's lower end
 * @param high its upper end
 * @param confidence the interval's coverage, 0.95 for a 95 % interval
 * @param pairSpread how much one pair's ratio scatters: the standard deviation of the pairs' log ratios around their
 *         own group's mean, as a factor (0.05: a single pair is typically 5 % off its query's figure); 0 with one pair
 *         per group
 * @param groups how many groups (queries) were measured
 * @param pairs how many pairs in all
 * @param resamples how many bootstrap resamples the interval rests on
 */
public record RatioEstimate(double ratio, double low, double high, double confidence, double pairSpread, int groups, int pairs, int resamples)
{
    public RatioEstimate
    {
        if (!(low <= ratio && ratio <= high) || !(low > 0)) {
            throw new IllegalArgumentException("expected 0 < low <= ratio <= high, got " + low + " <= " + ratio + " <= " + high);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("expected a confidence between 0 and 1, got " + confidence);
        }
    }

    /** Whether the interval holds 1: then the timings cannot tell with from without, whatever {@link #ratio} says. */
    public boolean noiseExplains()
    {
        return low <= 1 && 1 <= high;
    }

    /**
     * Whether every group has one pair only (one round): the interval then holds only the spread between the groups,
     * neither the round-to-round noise nor the order the two sides ran in, which only alternates between rounds.
     */
    public boolean oneRound()
    {
        return pairs == groups;
    }

    public double width()
    {
        return high - low;
    }

    /** Whether the whole interval lies within {@code [from, to]}. */
    public boolean within(double from, double to)
    {
        return from <= low && high <= to;
    }
}
