package io.chiplet.trino.skew;

import io.chiplet.placement.SkewAnalysis;
import io.chiplet.placement.SkewHint;
import io.chiplet.placement.SkewRule;
import io.trino.spi.eventlistener.LongDistribution;
import io.trino.spi.eventlistener.StageTaskStatistics;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Measures one stage's skew from the task statistics Trino attaches to a completed query. Trino gives each stage's
 * per-task input as a distribution (min, p25, p50, p75, p90, p95, p99, max, mean), not task by task. The measure
 * rebuilds one input per task from it (task i at quantile i/(tasks-1), interpolated between the reported
 * quantiles) and hands that to {@link SkewAnalysis}: up to three tasks that is min, median and max, the tasks' own
 * values as far as Trino's quantiles are exact; beyond, it follows the quantiles.
 * {@code maxToMean} needs no rebuilding and is always exact. The hint is core's {@link SkewRule}, on the stage's input
 * rows and its largest task's input bytes.
 */
public final class StageSkewMeasure
{
    private static final double[] RANKS = {0, 0.25, 0.5, 0.75, 0.90, 0.95, 0.99, 1};

    private StageSkewMeasure() {}

    /** Empty for a stage of one task: there is nothing to be uneven between. */
    public static Optional<CompletedStageSkew> measure(String queryId, String source, StageTaskStatistics stage, SkewRule.Thresholds thresholds)
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(source, "source is null");
        requireNonNull(stage, "stage is null");
        requireNonNull(thresholds, "thresholds is null");
        int tasks = stage.getTasks();
        if (tasks < SkewRule.MIN_COMPLETED_STAGE_TASKS) {
            return Optional.empty();
        }
        LongDistribution rows = stage.getProcessedInputPositionsDistribution();
        SkewAnalysis skew = SkewAnalysis.of(perTask(rows, tasks));
        double maxToMean = rows.getAverage() > 0 ? Math.max(0, rows.getMax()) / rows.getAverage() : 1.0;
        long inputRows = Math.max(0, rows.getTotal());
        long largestTaskBytes = Math.max(0, stage.getProcessedInputDataSizeDistribution().getMax());
        // The coordinator widens no task over chiplets: the hint feeds partition and driver counts.
        SkewHint hint = SkewRule.hint(new SkewRule.StageInputs(skew, OptionalLong.of(inputRows), OptionalLong.of(largestTaskBytes)), thresholds, 1).hint();
        return Optional.of(new CompletedStageSkew(queryId, source, stage.getStageId(), tasks, inputRows, skew.maxOverMedian(), maxToMean, skew.gini(), hint.configName()));
    }

    /** One value per task, lowest first, read off the distribution's quantiles. */
    static long[] perTask(LongDistribution distribution, int tasks)
    {
        if (tasks < 1) {
            throw new IllegalArgumentException("tasks must be positive: " + tasks);
        }
        long[] quantiles = {
                distribution.getMin(), distribution.getP25(), distribution.getP50(), distribution.getP75(),
                distribution.getP90(), distribution.getP95(), distribution.getP99(), distribution.getMax()};
        // A digest's quantiles may come out slightly unordered or, for an empty stage, negative: clean them once.
        long floor = 0;
        for (int k = 0; k < quantiles.length; k++) {
            quantiles[k] = Math.max(floor, quantiles[k]);
            floor = quantiles[k];
        }
        long[] values = new long[tasks];
        for (int i = 0; i < tasks; i++) {
            double rank = tasks == 1 ? 1 : (double) i / (tasks - 1);
            int k = 0;
            while (k < RANKS.length - 2 && rank > RANKS[k + 1]) {
                k++;
            }
            double fraction = (rank - RANKS[k]) / (RANKS[k + 1] - RANKS[k]);
            values[i] = Math.round(quantiles[k] + fraction * (quantiles[k + 1] - quantiles[k]));
        }
        return values;
    }
}
