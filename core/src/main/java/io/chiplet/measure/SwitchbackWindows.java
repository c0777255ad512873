package io.chiplet.measure;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Arms by time, for work that cannot be split by unit: engines whose threads serve all queries at once (Trino's
 * runner threads) or a Spark executor that is placed or not as a whole. Time is cut into windows of
 * {@code windowMillis}; each worker's windows are the units of {@link ArmAssignment} with the worker as stratum, so
 * at a control share of 0.5 every pair of windows holds one placed and one control window in a random order
 * (a switchback design). Work that ran in windows of both arms belongs to neither and is left out
 * ({@link #armOf(long, long, long, double)} is empty). Pure: the engine hands in the times it read.
 *
 * @param windowMillis each window's length: long against a unit's run time (so few units span two windows),
 *         short against the run (so there are many windows)
 */
public record SwitchbackWindows(ArmAssignment assignment, long windowMillis)
{
    public SwitchbackWindows
    {
        requireNonNull(assignment, "assignment is null");
        if (windowMillis < 1) {
            throw new IllegalArgumentException("expected a window of at least 1 ms, got " + windowMillis);
        }
    }

    /** The window holding {@code epochMillis}. */
    public long windowAt(long epochMillis)
    {
        return Math.floorDiv(epochMillis, windowMillis);
    }

    /** Where the next window starts after {@code epochMillis}: when the engine should look at the arm again. */
    public long nextWindowStart(long epochMillis)
    {
        return (windowAt(epochMillis) + 1) * windowMillis;
    }

    /** The arm of worker {@code stratum} at {@code epochMillis}. */
    public Arm armAt(long stratum, long epochMillis, double controlShare)
    {
        return assignment.of(stratum, Math.max(0, windowAt(epochMillis)), controlShare);
    }

    /**
     * The arm of work that ran on worker {@code stratum} from {@code startMillis} to {@code endMillis}, empty when its
     * windows were not all of one arm.
     */
    public Optional<Arm> armOf(long stratum, long startMillis, long endMillis, double controlShare)
    {
        if (endMillis < startMillis) {
            throw new IllegalArgumentException("work ends (" + endMillis + ") before it starts (" + startMillis + ")");
        }
        Arm first = armAt(stratum, startMillis, controlShare);
        for (long window = windowAt(startMillis) + 1; window <= windowAt(endMillis); window++) {
            if (assignment.of(stratum, Math.max(0, window), controlShare) != first) {
                return Optional.empty();
            }
        }
        return Optional.of(first);
    }
}
