package io.chiplet.measure;

import java.util.Arrays;

/**
 * The rule, fixed before the run, for how long a switchback window is: long against the tasks, so that few of them
 * span a switch of arm and are left out (and the left-out ones are the long ones, which placement may help most).
 * From the run times of the tasks finished so far, the window is the configured base window times {@code 2^m}, with
 * {@code m} the smallest exponent for which the window is at least {@code factor} times the {@code quantile} of those
 * run times; never shorter than the base window, never longer than {@code 2^maxExponent} base windows, and {@code m}
 * only grows (a window once long stays long, so that clusters already measured keep their length). Pure: the engine
 * hands in the run times it saw.
 *
 * <p>Why these defaults: a task of run time {@code d} starting at a random moment of a window {@code W} spans its end
 * with probability {@code d / W}; at a control share of 0.5 half of those ends are switches of arm. With {@code W} at
 * least 4 times the 90th percentile, nine tasks in ten are left out with probability 1/8 or less (the docs' "a few
 * times the longest task", with the longest read as the 90th percentile: the slowest tenth holds stragglers, which a
 * window long enough for them would leave too few windows for). The cap of 16 base windows keeps windows short against
 * a run. 20 finished tasks before the first decision keep a few early tasks from setting it.
 *
 * @param baseMillis the configured window: the shortest
 * @param factor how many times the quantile a window must be
 * @param quantile which quantile of the finished tasks' run times (0 to 1)
 * @param maxExponent the longest window is {@code 2^maxExponent} base windows
 * @param minTasks finished tasks needed before the window can grow
 */
public record WindowLength(long baseMillis, double factor, double quantile, int maxExponent, int minTasks)
{
    public static final double DEFAULT_FACTOR = 4;
    public static final double DEFAULT_QUANTILE = 0.9;
    public static final int DEFAULT_MAX_EXPONENT = 4;
    public static final int DEFAULT_MIN_TASKS = 20;

    public WindowLength
    {
        if (baseMillis < 1) {
            throw new IllegalArgumentException("expected a base window of at least 1 ms, got " + baseMillis);
        }
        if (!(factor > 0)) {
            throw new IllegalArgumentException("expected a window factor above 0, got " + factor);
        }
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("expected a quantile above 0 and at most 1, got " + quantile);
        }
        if (maxExponent < 0 || maxExponent > 20) {
            throw new IllegalArgumentException("expected a largest window exponent from 0 to 20, got " + maxExponent);
        }
        if (minTasks < 1) {
            throw new IllegalArgumentException("expected at least 1 task before a decision, got " + minTasks);
        }
    }

    /** The default rule over a configured window of {@code baseMillis}. */
    public static WindowLength of(long baseMillis)
    {
        return new WindowLength(baseMillis, DEFAULT_FACTOR, DEFAULT_QUANTILE, DEFAULT_MAX_EXPONENT, DEFAULT_MIN_TASKS);
    }

    /** The same rule that never lengthens the window (the configured window throughout). */
    public static WindowLength fixed(long baseMillis)
    {
        return new WindowLength(baseMillis, DEFAULT_FACTOR, DEFAULT_QUANTILE, 0, DEFAULT_MIN_TASKS);
    }

    /**
     * The exponent the rule asks for, given the one in force ({@code current}) and the run times (milliseconds) of the
     * tasks finished so far: never below {@code current}, never above {@link #maxExponent}.
     */
    public int exponent(int current, double[] runMillis)
    {
        if (current < 0) {
            throw new IllegalArgumentException("expected an exponent of 0 or more, got " + current);
        }
        if (runMillis.length < minTasks || current >= maxExponent) {
            return current;
        }
        double[] sorted = runMillis.clone();
        Arrays.sort(sorted);
        // The lower order statistic at the quantile: no interpolation, so the decision is the same on every JDK.
        double wanted = factor * sorted[Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1)];
        int exponent = 0;
        while (exponent < maxExponent && (double) baseMillis * (1L << exponent) < wanted) {
            exponent++;
        }
        return Math.max(current, exponent);
    }

    /** The window's length at exponent {@code exponent}. */
    public long windowMillis(int exponent)
    {
        return baseMillis << exponent;
    }
}
