package io.chiplet.placement;

import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * CHARM's Chiplet Scheduling Policy (Algorithm 1 of Fogli et al., "CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System", EuroSys 2026) for many workers, with two
 * guards the paper lacks.
 *
 * <p>Each worker has a spread (chiplets it may use, {@code 1..maxSpread}, starting at 1). Once per interval (the
 * paper's 500 ms {@code SCHEDULER_TIMER}) the caller reports the worker's remote cache fills; the count is scaled to
 * a full interval (line 6) and compared with the threshold (300 per interval, §5). The paper widens on any rate at
 * or above the threshold and narrows on any rate below it, so a rate hovering near the threshold moves the worker
 * every interval. Here:
 * <ul>
 * <li>hysteresis: widen only above {@code threshold * (1 + h)}, narrow only below {@code threshold * (1 - h)};</li>
 * <li>confirmation: the rate must stay beyond the band for {@code confirmIntervals} intervals in a row, and the count
 * starts again after each move, so a move's effect is measured before the next;</li>
 * <li>bounded moves: at most {@code maxMovesPerInterval} spread changes between two {@link #beginInterval} calls; a
 * worker over budget keeps its evidence and moves in a later interval.</li>
 * </ul>
 * State lives in primitive arrays; {@link #step} allocates nothing. Pure and not thread-safe: one owner feeds it.
 */
public final class SpreadController
{
    /**
     * @param intervalNanos the scheduler interval the threshold is expressed in
     * @param threshold remote fills per interval that mark a worker as starved of cache
     * @param hysteresis the half-width of the dead band, as a fraction of the threshold ({@code 0 <= h < 1})
     * @param confirmIntervals consecutive intervals beyond the band before a move
     * @param maxMovesPerInterval spread changes allowed between two {@link #beginInterval} calls
     */
    public record Settings(long intervalNanos, double threshold, double hysteresis, int confirmIntervals, int maxMovesPerInterval)
    {
        public static final long CHARM_INTERVAL_NANOS = 500_000_000L;
        public static final double CHARM_THRESHOLD = 300;

        public Settings
        {
            if (intervalNanos <= 0) {
                throw new IllegalArgumentException("intervalNanos must be positive: " + intervalNanos);
            }
            if (!(threshold > 0)) {
                throw new IllegalArgumentException("threshold must be positive: " + threshold);
            }
            if (!(hysteresis >= 0 && hysteresis < 1)) {
                throw new IllegalArgumentException("hysteresis must be in [0, 1): " + hysteresis);
            }
            if (confirmIntervals < 1 || maxMovesPerInterval < 1) {
                throw new IllegalArgumentException("confirmIntervals and maxMovesPerInterval must be positive");
            }
        }

        /** CHARM's constants with a 20% dead band, two confirming intervals and a quarter of the workers per interval. */
        public static Settings defaults(int workers)
        {
            return new Settings(CHARM_INTERVAL_NANOS, CHARM_THRESHOLD, 0.2, 2, Math.max(1, workers / 4));
        }

        /**
         * {@link #defaults}' band, confirmation and move budget around an operator's interval and threshold. A
         * threshold of 0 means "spread on any remote access": the controller needs a positive one, the smallest does that.
         */
        public static Settings charm(long intervalNanos, double threshold, int workers)
        {
            Settings charm = defaults(workers);
            if (!(threshold >= 0)) {
                throw new IllegalArgumentException("threshold must not be negative: " + threshold);
            }
            return new Settings(intervalNanos, Math.max(threshold, Double.MIN_VALUE), charm.hysteresis(), charm.confirmIntervals(), charm.maxMovesPerInterval());
        }

        /** The paper's Algorithm 1 as published: no band, no confirmation, no bound. */
        public static Settings paper(int workers)
        {
            return new Settings(CHARM_INTERVAL_NANOS, CHARM_THRESHOLD, 0, 1, Math.max(1, workers));
        }
    }

    private final int maxSpread;
    private final double widenAbove;
    private final double narrowBelow;
    private final int confirmIntervals;
    private final int maxMovesPerInterval;
    private final long intervalNanos;
    private final int[] spread;
    private final int[] highStreak;
    private final int[] lowStreak;
    private int movesThisInterval;

    public SpreadController(int workers, int maxSpread, Settings settings)
    {
        requireNonNull(settings, "settings is null");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be positive: " + workers);
        }
        if (maxSpread < 1) {
            throw new IllegalArgumentException("maxSpread must be positive: " + maxSpread);
        }
        this.maxSpread = maxSpread;
        this.intervalNanos = settings.intervalNanos();
        this.widenAbove = settings.threshold() * (1 + settings.hysteresis());
        this.narrowBelow = settings.threshold() * (1 - settings.hysteresis());
        this.confirmIntervals = settings.confirmIntervals();
        this.maxMovesPerInterval = settings.maxMovesPerInterval();
        this.spread = new int[workers];
        this.highStreak = new int[workers];
        this.lowStreak = new int[workers];
        Arrays.fill(spread, 1);
    }

    /**
     * A controller for a new set of workers: worker {@code i} goes on as this controller's worker {@code from[i]}
     * (its spread and the evidence towards its next move), or starts afresh at spread 1 where {@code from[i] < 0}.
     * The move budget of the current interval is spent as far as it was.
     */
    public SpreadController regrouped(int[] from, Settings settings)
    {
        requireNonNull(from, "from is null");
        SpreadController next = new SpreadController(from.length, maxSpread, settings);
        for (int worker = 0; worker < from.length; worker++) {
            int old = from[worker];
            if (old >= spread.length) {
                throw new IllegalArgumentException("worker " + worker + " goes on as worker " + old + ", but there are only " + spread.length);
            }
            if (old >= 0) {
                next.spread[worker] = spread[old];
                next.highStreak[worker] = highStreak[old];
                next.lowStreak[worker] = lowStreak[old];
            }
        }
        next.movesThisInterval = movesThisInterval;
        return next;
    }

    /** Starts a new interval: the move budget is full again. */
    public void beginInterval()
    {
        movesThisInterval = 0;
    }

    /**
     * Feeds one worker's remote cache fills since its last step.
     *
     * @param elapsedNanos time since the worker's last step; the count is scaled to one interval
     * @return the worker's spread after this step
     */
    public int step(int worker, long remoteFills, long elapsedNanos)
    {
        if (remoteFills < 0 || elapsedNanos <= 0) {
            throw new IllegalArgumentException("remote fills must not be negative and elapsed time must be positive");
        }
        double rate = (double) remoteFills * intervalNanos / elapsedNanos;
        int current = spread[worker];
        if (rate > widenAbove) {
            lowStreak[worker] = 0;
            if (current < maxSpread && ++highStreak[worker] >= confirmIntervals && movesThisInterval < maxMovesPerInterval) {
                movesThisInterval++;
                highStreak[worker] = 0;
                spread[worker] = current + 1;
            }
        }
        else if (rate < narrowBelow) {
            highStreak[worker] = 0;
            if (current > 1 && ++lowStreak[worker] >= confirmIntervals && movesThisInterval < maxMovesPerInterval) {
                movesThisInterval++;
                lowStreak[worker] = 0;
                spread[worker] = current - 1;
            }
        }
        else {
            highStreak[worker] = 0;
            lowStreak[worker] = 0;
        }
        return spread[worker];
    }

    public int spread(int worker)
    {
        return spread[worker];
    }

    public int workers()
    {
        return spread.length;
    }

    public int maxSpread()
    {
        return maxSpread;
    }

    /** Copies the spreads into {@code out} (for {@link SpreadLocator#locate}) without allocating. */
    public void copySpreads(int[] out)
    {
        System.arraycopy(spread, 0, out, 0, spread.length);
    }

    public int movesThisInterval()
    {
        return movesThisInterval;
    }
}
