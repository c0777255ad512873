package io.chiplet.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * When the skew measured on completed queries may change the settings of later ones: what counts as evidence, how
 * much of it a query shape needs, how long it lasts, and how the hints of several shapes combine. A single small query
 * (two tasks, four rows) must change nobody's settings, and what a query shape did an hour ago must not steer it
 * today. Pure: the caller passes the time.
 */
public final class SkewEvidence
{
    /** Tasks of a query's stages together, below which the spread over tasks says little. */
    public static final int MIN_TASKS = 4;
    /**
     * Rows the query's largest stage processed (five times {@link SkewRule.Thresholds#DEFAULT_MIN_STAGE_ROWS}, below
     * which a stage's hint is none anyway); or, for a query that reads little but computes much, ...
     */
    public static final long MIN_STAGE_INPUT_ROWS = 50_000;
    /** ... the CPU time the query used. */
    public static final Duration MIN_CPU_TIME = Duration.ofSeconds(5);
    /** Qualifying queries of one shape before its hint changes anything: one run may be an accident of its data. */
    public static final int MIN_QUERIES = 2;
    /** How many of a query shape's latest queries its hint looks at, unless the operator says otherwise. */
    public static final int DEFAULT_WINDOW_QUERIES = 4;
    /** Evidence older than this is forgotten. */
    public static final Duration MAX_AGE = Duration.ofMinutes(30);

    private SkewEvidence() {}

    /** One qualifying query of a shape: when it completed and its hint. */
    public record Observation(Instant completed, SkewHint hint)
    {
        public Observation
        {
            requireNonNull(completed, "completed is null");
            requireNonNull(hint, "hint is null");
        }
    }

    /** Whether a completed query did enough work for its skew to count. */
    public static boolean enoughWork(int tasks, long largestStageInputRows, Duration cpuTime)
    {
        requireNonNull(cpuTime, "cpuTime is null");
        return tasks >= MIN_TASKS && (largestStageInputRows >= MIN_STAGE_INPUT_ROWS || cpuTime.compareTo(MIN_CPU_TIME) >= 0);
    }

    /**
     * A query's hint from its stages' hints: spread where any stage was skewed, consolidate only where every measured
     * stage was spread too thin.
     */
    public static SkewHint queryHint(Collection<SkewHint> stageHints)
    {
        requireNonNull(stageHints, "stageHints is null");
        if (stageHints.contains(SkewHint.SPREAD)) {
            return SkewHint.SPREAD;
        }
        return !stageHints.isEmpty() && stageHints.stream().allMatch(SkewHint.CONSOLIDATE::equals) ? SkewHint.CONSOLIDATE : SkewHint.NONE;
    }

    /**
     * One query shape's hint from its observations (oldest first): only those younger than {@link #MAX_AGE}, at most the
     * latest {@code windowQueries}, and at least {@link #MIN_QUERIES} of them. Spread wins if any of them was skewed (the
     * hint must outlive the query it helped, or the next run falls back, skews again and the hint flaps); consolidate
     * needs the latest to have been spread too thin.
     */
    public static SkewHint shapeHint(List<Observation> observations, Instant now, int windowQueries)
    {
        requireNonNull(observations, "observations is null");
        requireNonNull(now, "now is null");
        if (windowQueries < 1) {
            throw new IllegalArgumentException("windowQueries must be positive: " + windowQueries);
        }
        List<Observation> fresh = observations.stream().filter(observation -> isFresh(observation, now)).toList();
        List<Observation> window = fresh.subList(Math.max(0, fresh.size() - windowQueries), fresh.size());
        if (window.size() < MIN_QUERIES) {
            return SkewHint.NONE;
        }
        if (window.stream().anyMatch(observation -> observation.hint() == SkewHint.SPREAD)) {
            return SkewHint.SPREAD;
        }
        return window.get(window.size() - 1).hint() == SkewHint.CONSOLIDATE ? SkewHint.CONSOLIDATE : SkewHint.NONE;
    }

    public static boolean isFresh(Observation observation, Instant now)
    {
        return !observation.completed().isBefore(now.minus(MAX_AGE));
    }

    /**
     * The hint for a session that may run any of several shapes (an engine may not say which query a session's
     * settings are for): their common hint where all agree, none otherwise.
     */
    public static SkewHint commonHint(Collection<SkewHint> shapeHints)
    {
        requireNonNull(shapeHints, "shapeHints is null");
        return shapeHints.stream().distinct().count() == 1 ? shapeHints.iterator().next() : SkewHint.NONE;
    }
}
