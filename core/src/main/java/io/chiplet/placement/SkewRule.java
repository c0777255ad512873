package io.chiplet.placement;

import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * The skew-to-hint rule of both engines (the study's skew remedies, §4.5.3: skew-aware resource allocation, and
 * adjusting chiplet resources to the data distribution while keeping processing local). Pure: one stage's task inputs
 * in, one hint out.
 *
 * <ul>
 * <li>{@link SkewHint#SPREAD}: the largest task input is at least {@code skewedMaxOverMedian} times the median and
 * the stage is large enough for that to matter (at least {@code minStageRows} rows, where the engine counts them).
 * A task of the stage may spread over as many chiplets as its largest input is medians large, at least 2 and at most
 * the chiplets there are, so a heavy task gets the L3 of several chiplets.</li>
 * <li>{@link SkewHint#CONSOLIDATE}: otherwise, when every task's input is below {@code consolidateBelowBytes} (a
 * chiplet's L3 for Spark's spread hint, the smallest useful partition for Trino's partition counts): spread 1, the
 * stage stays where its data is.</li>
 * <li>{@link SkewHint#NONE}: otherwise; the engine's own policy holds.</li>
 * </ul>
 */
public final class SkewRule
{
    /**
     * @param skewedMaxOverMedian a stage at or above this max/median is skewed (the study's 2.0 by default)
     * @param minStageRows below this many input rows a stage is too small for its skew to matter
     * @param consolidateBelowBytes a stage whose every task read less than this consolidates; 0 never consolidates
     */
    public record Thresholds(double skewedMaxOverMedian, long minStageRows, long consolidateBelowBytes)
    {
        public static final long DEFAULT_MIN_STAGE_ROWS = 10_000;
        public static final Thresholds DEFAULT = new Thresholds(SkewAnalysis.SKEWED_MAX_OVER_MEDIAN, DEFAULT_MIN_STAGE_ROWS, PartitionSizing.MIN_TARGET_BYTES);

        public Thresholds
        {
            if (!(skewedMaxOverMedian > 1) || Double.isInfinite(skewedMaxOverMedian)) {
                throw new IllegalArgumentException("skewedMaxOverMedian must be a ratio above 1: " + skewedMaxOverMedian);
            }
            if (minStageRows < 0 || consolidateBelowBytes < 0) {
                throw new IllegalArgumentException("minStageRows and consolidateBelowBytes must not be negative");
            }
        }

        public Thresholds withConsolidateBelowBytes(long bytes)
        {
            return new Thresholds(skewedMaxOverMedian, minStageRows, bytes);
        }
    }

    /**
     * One stage's task inputs as the engine measured them.
     *
     * @param skew the distribution of the tasks' inputs, in bytes or rows
     * @param rows the stage's input rows, all tasks together; empty where the engine does not count them for every
     * task (the minimum size then does not apply)
     * @param largestTaskBytes the largest task input in bytes; empty where only rows are known (then the stage never
     * consolidates)
     */
    public record StageInputs(SkewAnalysis skew, OptionalLong rows, OptionalLong largestTaskBytes)
    {
        public StageInputs
        {
            requireNonNull(skew, "skew is null");
            requireNonNull(rows, "rows is null");
            requireNonNull(largestTaskBytes, "largestTaskBytes is null");
        }

        /** Task inputs in bytes, rows not counted. */
        public static StageInputs ofBytes(long[] taskBytes)
        {
            SkewAnalysis skew = SkewAnalysis.of(taskBytes);
            return new StageInputs(skew, OptionalLong.empty(), OptionalLong.of(skew.maxBytes()));
        }
    }

    /**
     * @param chiplets how many chiplets a task of the stage may use: 1 to consolidate, 2 or more to spread, the
     * executor's own choice (0) for {@link SkewHint#NONE} and for a spread with only one chiplet to spread over
     */
    public record StageHint(SkewHint hint, int chiplets)
    {
        public StageHint
        {
            requireNonNull(hint, "hint is null");
        }

        /** The chiplets a task of the stage may spread over, where the hint names a number. */
        public OptionalInt chipletSpread()
        {
            return chiplets > 0 ? OptionalInt.of(chiplets) : OptionalInt.empty();
        }
    }

    /**
     * Tasks a completed stage must have run for its spread over tasks to be a distribution at all (Trino counts a
     * stage once it is done: with two tasks the max over the median already says how uneven they were).
     */
    public static final int MIN_COMPLETED_STAGE_TASKS = 2;
    /**
     * Finished tasks of a still running stage, with no prediction of its partition sizes, before their inputs stand
     * for the stage (Spark): the first few finishers are the small ones, so fewer would understate the skew.
     */
    public static final int MIN_FINISHED_TASKS_WITHOUT_PREDICTION = 4;

    private SkewRule() {}

    /**
     * @param maxChiplets the most chiplets a task may spread over; 1 where nothing can widen a task (a Trino
     * coordinator's hint then still says spread, for more partitions and drivers)
     */
    public static StageHint hint(StageInputs stage, Thresholds thresholds, int maxChiplets)
    {
        requireNonNull(stage, "stage is null");
        requireNonNull(thresholds, "thresholds is null");
        if (maxChiplets < 1) {
            throw new IllegalArgumentException("maxChiplets must be positive: " + maxChiplets);
        }
        SkewAnalysis skew = stage.skew();
        boolean matters = stage.rows().isEmpty() || stage.rows().getAsLong() >= thresholds.minStageRows();
        if (matters && skew.maxOverMedian() >= thresholds.skewedMaxOverMedian()) {
            double wide = Double.isInfinite(skew.maxOverMedian()) ? maxChiplets : Math.ceil(skew.maxOverMedian());
            int chiplets = (int) Math.max(2, Math.min(wide, maxChiplets));
            return new StageHint(SkewHint.SPREAD, maxChiplets >= 2 ? chiplets : 0);
        }
        if (stage.largestTaskBytes().isPresent() && stage.largestTaskBytes().getAsLong() < thresholds.consolidateBelowBytes()) {
            return new StageHint(SkewHint.CONSOLIDATE, 1);
        }
        return new StageHint(SkewHint.NONE, 0);
    }
}
