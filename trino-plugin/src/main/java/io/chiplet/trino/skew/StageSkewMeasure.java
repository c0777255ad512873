package io.chiplet.trino.skew;

import io.chiplet.placement.PartitionSizing;
import io.chiplet.placement.SkewAnalysis;
import io.trino.spi.eventlistener.LongDistribution;
import io.trino.spi.eventlistener.StageTaskStatistics;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Measures one stage's skew from the task statistics Trino attaches to a completed query. Trino gives each stage's
 * per-task input as a distribution (min, p25, p50, p75, p90, p95, p99, max, mean), not task by task. The measure
 * rebuilds one input per task from it (task i at quantile i/(tasks-1), interpolated between the reported
 * quantiles) and hands that to {@link SkewAnalysis}: up to three tasks that is min, median and max, the tasks' own
 * values as far as Trino's quantiles are exact; beyond, it follows the quantiles.
 * {@code maxToMean} needs no rebuilding and is always exact.
 */
public final class StageSkewMeasure
{
    private static final double[] RANKS = {0, 0.25, 0.5, 0.75, 0.90, 0.95, 0.99, 1};

    /**
     * @param skewedMaxOverMedian a stage at or above this max/median is skewed (default: the study's 2.0)
     * @param minStageRows below this many input rows a stage is too small for its skew to matter
     * @param consolidateBelowBytes a stage whose tasks averaged less input than this is spread too thin
     */
    public record Thresholds(double skewedMaxOverMedian, long minStageRows, long consolidateBelowBytes)
    {
        public static final Thresholds DEFAULT = new Thresholds(SkewAnalysis.SKEWED_MAX_OVER_MEDIAN, 10_000, PartitionSizing.MIN_TARGET_BYTES);

        public Thresholds
        {
            if (!(skewedMaxOverMedian > 1)) {
                throw new IllegalArgumentException("skewedMaxOverMedian must be above 1: " + skewedMaxOverMedian);
            }
            if (minStageRows < 0 || consolidateBelowBytes < 0) {
                throw new IllegalArgumentException("minStageRows and consolidateBelowBytes must not be negative");
            }
        }
    }

    private StageSkewMeasure() {}

    /** Empty for a stage of one task: there is nothing to be uneven between. */
    public static Optional<CompletedStageSkew> measure(String queryId, String source, StageTaskStatistics stage, Thresholds thresholds)
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(source, "source is null");
        requireNonNull(stage, "stage is null");
        requireNonNull(thresholds, "thresholds is null");
        int tasks = stage.getTasks();
        if (tasks < 2) {
            return Optional.empty();
        }
        LongDistribution rows = stage.getProcessedInputPositionsDistribution();
        SkewAnalysis skew = SkewAnalysis.of(perTask(rows, tasks));
        double maxToMean = rows.getAverage() > 0 ? Math.max(0, rows.getMax()) / rows.getAverage() : 1.0;
        long inputRows = Math.max(0, rows.getTotal());
        SkewHint hint;
        if (inputRows >= thresholds.minStageRows() && skew.maxOverMedian() >= thresholds.skewedMaxOverMedian()) {
            hint = SkewHint.SPREAD;
        }
        else if (stage.getProcessedInputDataSizeDistribution().getAverage() < thresholds.consolidateBelowBytes()) {
            hint = SkewHint.CONSOLIDATE;
        }
        else {
            hint = SkewHint.NONE;
        }
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
