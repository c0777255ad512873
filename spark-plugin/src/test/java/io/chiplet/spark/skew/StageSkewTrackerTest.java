package io.chiplet.spark.skew;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StageSkewTrackerTest
{
    private static final long L3 = 32L << 20;

    private final StageSkewTracker skew = new StageSkewTracker();
    private final Map<Integer, Integer> nextPartition = new HashMap<>();

    @Test
    void skewedStageSpreadsAsWideAsItsLargestTaskIsMediansLarge()
    {
        skew.stageSubmitted(3);
        sizes(3, 10, 10, 10, 30, 10);
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(3, 3));
        // never wider than an executor's chiplets
        assertThat(skew.hints(2, L3).chipletsByStage()).isEqualTo(Map.of(3, 2));
        // one chiplet: nothing to spread over
        assertThat(skew.hints(1, L3)).isEqualTo(SpreadHints.NONE);
    }

    @Test
    void evenStageThatFitsTheL3Consolidates()
    {
        skew.stageSubmitted(1);
        sizes(1, 1000, 1100, 900, 1000);
        assertThat(skew.hints(4, L3).chipletsByStage()).isEqualTo(Map.of(1, 1));
        // L3 unknown or tasks larger than it: the executor's own policy holds
        assertThat(skew.hints(4, 0)).isEqualTo(SpreadHints.NONE);
        assertThat(skew.hints(4, 999)).isEqualTo(SpreadHints.NONE);
    }

    @Test
    void tooFewTasksOrAFinishedStageGiveNoHint()
    {
        skew.stageSubmitted(2);
        sizes(2, 1, 1, 100);
        assertThat(skew.hints(4, L3)).isEqualTo(SpreadHints.NONE);
        sizes(2, 1);
        assertThat(skew.hints(4, L3).chipletsByStage()).containsKey(2);

        assertThat(skew.stageCompleted(2)).hasValueSatisfying(report -> assertThat(report.skew().isSkewed()).isTrue());
        assertThat(skew.hints(4, L3)).isEqualTo(SpreadHints.NONE);
        // a task of a stage never submitted (or already gone) is ignored
        skew.taskEnded(2, 0, 5, 5);
        assertThat(skew.stageCompleted(2)).isEmpty();
    }

    @Test
    void recordsStandInWhereNoBytesAreReported()
    {
        skew.stageSubmitted(4);
        for (int partition = 0; partition < 4; partition++) {
            skew.taskEnded(4, partition, 0, partition == 3 ? 400 : 100);
        }
        assertThat(skew.hints(4, L3).chipletsByStage()).isEqualTo(Map.of(4, 4));
        assertThat(skew.stageCompleted(4)).hasValueSatisfying(report -> assertThat(report.inBytes()).isFalse());
    }

    @Test
    void aRetriedPartitionCountsOnce()
    {
        skew.stageSubmitted(5);
        sizes(5, 10, 10, 10, 10);
        // partition 0 ran again (speculation, retry) and read more: its latest input counts, not both
        skew.taskEnded(5, 0, 40, 0);
        assertThat(skew.stageCompleted(5)).hasValueSatisfying(report -> {
            assertThat(report.skew().partitions()).isEqualTo(4);
            assertThat(report.skew().maxBytes()).isEqualTo(40);
        });
    }

    @Test
    void mapOutputSizesGiveTheHintBeforeAnyTaskEnds()
    {
        skew.stageSubmitted(7, new long[] {10, 10, 10, 40, 10, 10});
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(7, 4));
        assertThat(skew.report(7)).hasValueSatisfying(report -> {
            assertThat(report.predicted()).isEqualTo(6);
            assertThat(report.skew().partitions()).isEqualTo(6);
            assertThat(report.inBytes()).isTrue();
        });

        // even and small: consolidated from the start, one partition included
        skew.stageSubmitted(8, new long[] {1000, 1100, 900});
        skew.stageSubmitted(9, new long[] {1000});
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(7, 4, 8, 1, 9, 1));
    }

    @Test
    void aFinishedTaskReplacesItsPartitionsPrediction()
    {
        skew.stageSubmitted(3, new long[] {10, 10, 10, 40});
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(3, 4));

        // partition 3 read far less than its map output said: the measured input wins, the stage is even
        skew.taskEnded(3, 3, 12, 1);
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(3, 1));
        assertThat(skew.report(3)).hasValueSatisfying(report -> {
            assertThat(report.predicted()).isEqualTo(3);
            assertThat(report.skew().maxBytes()).isEqualTo(12);
        });

        // and one measured larger makes it heavy again
        skew.taskEnded(3, 0, 55, 1);
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(3, 5));
        assertThat(skew.stageCompleted(3)).hasValueSatisfying(report -> assertThat(report.predicted()).isEqualTo(2));
    }

    @Test
    void heavyPartitionsStillRunningKeepTheStageHeavy()
    {
        // Seven light partitions finish first, the heavy one last: the heavy one's prediction still counts, where
        // the first finished tasks alone would call the stage even.
        skew.stageSubmitted(4, new long[] {10, 10, 10, 10, 10, 10, 10, 100});
        for (int partition = 0; partition < 7; partition++) {
            skew.taskEnded(4, partition, 10, 1);
        }
        assertThat(skew.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(4, 8));
        assertThat(skew.report(4)).hasValueSatisfying(report -> assertThat(report.predicted()).isEqualTo(1));

        StageSkewTracker measuredOnly = new StageSkewTracker();
        measuredOnly.stageSubmitted(4);
        for (int partition = 0; partition < 7; partition++) {
            measuredOnly.taskEnded(4, partition, 10, 1);
        }
        assertThat(measuredOnly.hints(8, L3).chipletsByStage()).isEqualTo(Map.of(4, 1));
    }

    @Test
    void aRetriedAttemptKeepsWhatEarlierAttemptsMeasured()
    {
        skew.stageSubmitted(6, new long[] {10, 10, 10, 40});
        skew.taskEnded(6, 3, 10, 1);
        skew.stageSubmitted(6, new long[] {10, 10, 10, 40});
        assertThat(skew.report(6)).hasValueSatisfying(report -> {
            assertThat(report.predicted()).isEqualTo(3);
            assertThat(report.skew().isSkewed()).isFalse();
        });
    }

    @Test
    void predictionsMustBeSizes()
    {
        assertThatThrownBy(() -> skew.stageSubmitted(1, new long[0])).hasMessageContaining("stage 1").hasMessageContaining("at least one");
        assertThatThrownBy(() -> skew.stageSubmitted(1, new long[] {5, -1})).hasMessageContaining("must not be negative: -1");
        assertThat(skew.report(1)).isEmpty();
    }

    /** Adds tasks of {@code stage} with these input sizes, numbering partitions on from the stage's last. */
    private void sizes(int stage, long... bytes)
    {
        int first = nextPartition.getOrDefault(stage, 0);
        for (int partition = 0; partition < bytes.length; partition++) {
            skew.taskEnded(stage, first + partition, bytes[partition], 1);
        }
        nextPartition.put(stage, first + bytes.length);
    }
}
