package io.chiplet.trino.skew;

import static java.util.Objects.requireNonNull;

/**
 * How unevenly one stage of a completed query spread its work over its tasks, and the hint drawn from it.
 *
 * @param queryId the query's id
 * @param source the query's source (client tag of the application), empty when the client gave none
 * @param stageId the stage within the query
 * @param tasks how many tasks the stage ran
 * @param maxToMean the busiest task's input (rows) over the mean task's; 1.0 is perfectly even
 * @param coefficientOfVariation the standard deviation of the tasks' input over its mean
 * @param hint what later queries of the same source get: {@code spread}, {@code consolidate} or {@code none}
 */
public record StageSkew(String queryId, String source, int stageId, int tasks, double maxToMean, double coefficientOfVariation, String hint)
{
    public StageSkew
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(source, "source is null");
        requireNonNull(hint, "hint is null");
    }
}
