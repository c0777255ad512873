package io.chiplet.trino.skew;

import static java.util.Objects.requireNonNull;

/**
 * How unevenly one stage of a completed query spread its input over its tasks, and the hint drawn from it. Trino
 * reports each stage's per-task input as a distribution (quantiles, max, mean), not task by task, so the measures
 * are those a distribution gives exactly ({@code maxToMean}) or closely ({@code maxOverMedian}, {@code gini}, from
 * per-task values rebuilt out of the quantiles, see {@link StageSkewMeasure}).
 *
 * @param queryId the query's id
 * @param source the query's source (the client application's name), empty when the client gave none
 * @param stageId the stage within the query
 * @param tasks how many tasks the stage ran
 * @param inputRows the rows the stage's tasks processed, all together
 * @param maxOverMedian the busiest task's input rows over the median task's; 1.0 is perfectly even
 * @param maxToMean the busiest task's input rows over the mean task's; at most {@code tasks}
 * @param gini 0 when every task had the same input, approaching 1 when one task had all of it
 * @param hint the stage's hint: {@code spread}, {@code consolidate} or {@code none}
 * @param queryShape the fingerprint of the query's text ({@link QueryShape}); empty where not known
 * @param evidence whether the query did enough work for its skew to count as evidence for later sessions
 */
public record CompletedStageSkew(String queryId, String source, int stageId, int tasks, long inputRows, double maxOverMedian, double maxToMean, double gini, String hint,
        String queryShape, boolean evidence)
{
    public CompletedStageSkew
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(source, "source is null");
        requireNonNull(hint, "hint is null");
        requireNonNull(queryShape, "queryShape is null");
    }

    /** A stage measured before its query's shape and evidence are known. */
    public CompletedStageSkew(String queryId, String source, int stageId, int tasks, long inputRows, double maxOverMedian, double maxToMean, double gini, String hint)
    {
        this(queryId, source, stageId, tasks, inputRows, maxOverMedian, maxToMean, gini, hint, "", false);
    }

    public CompletedStageSkew withQuery(String queryShape, boolean evidence)
    {
        return new CompletedStageSkew(queryId, source, stageId, tasks, inputRows, maxOverMedian, maxToMean, gini, hint, queryShape, evidence);
    }
}
