package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * Why the guard stopped placement: the estimate at the look that stopped it.
 *
 * @param look the look's number, from 0
 * @param threshold the t-score the look asked for (the log ratio over its standard error)
 */
public record GuardStop(ArmEstimate estimate, int look, double threshold)
{
    public GuardStop
    {
        requireNonNull(estimate, "estimate is null");
    }
}
