package io.chiplet.trino.skew;

import io.chiplet.placement.SkewAnalysis;
import io.chiplet.placement.SkewRule;
import io.trino.spi.eventlistener.StageTaskStatistics;
import org.junit.jupiter.api.Test;

import static io.chiplet.trino.skew.StageStatistics.distribution;
import static io.chiplet.trino.skew.StageStatistics.stage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StageSkewMeasureTest
{
    private static final SkewRule.Thresholds DEFAULT = SkewRule.Thresholds.DEFAULT;

    @Test
    void threeTasksAreRebuiltExactly()
    {
        assertThat(StageSkewMeasure.perTask(distribution(900, 50, 40), 3)).containsExactly(40, 50, 900);
    }

    @Test
    void rebuiltInputsFollowTheQuantilesAndStayOrdered()
    {
        long[] tasks = {10, 20, 30, 40, 50, 60, 70, 80, 90, 1000};
        long[] rebuilt = StageSkewMeasure.perTask(distribution(tasks), tasks.length);

        assertThat(rebuilt).hasSize(10).isSorted();
        assertThat(rebuilt[0]).isEqualTo(10);
        assertThat(rebuilt[9]).isEqualTo(1000);
        // The median sits between the reported p25 and p75; the rebuilt sample keeps it there.
        assertThat(SkewAnalysis.of(rebuilt).medianBytes()).isBetween(30.0, 80.0);
    }

    @Test
    void oneHeavyTaskIsSkewedAndAsksForSpread()
    {
        CompletedStageSkew skew = StageSkewMeasure.measure("q1", "etl", stage(3, 100, 54_000, 3_000, 3_000), DEFAULT).orElseThrow();

        assertThat(skew.queryId()).isEqualTo("q1");
        assertThat(skew.source()).isEqualTo("etl");
        assertThat(skew.stageId()).isEqualTo(3);
        assertThat(skew.tasks()).isEqualTo(3);
        assertThat(skew.inputRows()).isEqualTo(60_000);
        assertThat(skew.maxOverMedian()).isCloseTo(18.0, within(1e-9));
        assertThat(skew.maxToMean()).isCloseTo(54_000 / 20_000.0, within(1e-9));
        assertThat(skew.gini()).isCloseTo(SkewAnalysis.of(new long[] {54_000, 3_000, 3_000}).gini(), within(1e-9));
        assertThat(skew.hint()).isEqualTo("spread");
    }

    @Test
    void evenStageAsksForNothing()
    {
        CompletedStageSkew skew = StageSkewMeasure.measure("q1", "", stage(1, 1_000, 20_000, 21_000, 19_000), DEFAULT).orElseThrow();

        assertThat(skew.maxOverMedian()).isCloseTo(21_000 / 20_000.0, within(1e-9));
        assertThat(skew.gini()).isLessThan(0.05);
        assertThat(skew.hint()).isEqualTo("none");
    }

    @Test
    void skewOnFewRowsDoesNotMatterButThinTasksConsolidate()
    {
        // 3 000 rows of 8 bytes: skewed, yet far below 10 000 rows, and every task far below 1 MiB.
        CompletedStageSkew skew = StageSkewMeasure.measure("q1", "etl", stage(2, 8, 2_800, 100, 100), DEFAULT).orElseThrow();

        assertThat(skew.maxOverMedian()).isGreaterThan(SkewAnalysis.SKEWED_MAX_OVER_MEDIAN);
        assertThat(skew.hint()).isEqualTo("consolidate");
    }

    @Test
    void tasksWithNoInputAtAllAreSkewedWhenOneTaskHasIt()
    {
        CompletedStageSkew skew = StageSkewMeasure.measure("q1", "etl", stage(2, 100, 50_000, 0, 0), DEFAULT).orElseThrow();

        assertThat(skew.maxOverMedian()).isInfinite();
        assertThat(skew.maxToMean()).isCloseTo(3.0, within(1e-9));
        assertThat(skew.hint()).isEqualTo("spread");
    }

    @Test
    void thresholdsDecide()
    {
        StageTaskStatistics stage = stage(1, 100, 30_000, 12_000, 12_000);

        assertThat(StageSkewMeasure.measure("q", "s", stage, DEFAULT).orElseThrow().hint()).isEqualTo("spread");
        assertThat(StageSkewMeasure.measure("q", "s", stage, new SkewRule.Thresholds(3.0, 10_000, 1)).orElseThrow().hint()).isEqualTo("none");
        assertThat(StageSkewMeasure.measure("q", "s", stage, new SkewRule.Thresholds(2.0, 100_000, 1)).orElseThrow().hint()).isEqualTo("none");
    }

    @Test
    void oneTaskAboveTheBoundKeepsTheStageFromConsolidating()
    {
        // Not skewed (max/median 1.7), tasks of 1.2 MB, 0.7 MB, 0.7 MB: the mean (0.87 MB) is below 1 MiB, the largest
        // task is not. Core's rule looks at the largest task: every task must be below the bound.
        CompletedStageSkew skew = StageSkewMeasure.measure("q1", "etl", stage(1, 20, 60_000, 35_000, 35_000), DEFAULT).orElseThrow();
        assertThat(skew.hint()).isEqualTo("none");
        assertThat(StageSkewMeasure.measure("q1", "etl", stage(1, 20, 60_000, 35_000, 35_000), DEFAULT.withConsolidateBelowBytes(1_200_001)).orElseThrow().hint())
                .isEqualTo("consolidate");
    }

    @Test
    void aSingleTaskStageHasNoSkew()
    {
        assertThat(StageSkewMeasure.measure("q1", "etl", stage(0, 100, 1_000_000), DEFAULT)).isEmpty();
    }
}
