package io.chiplet.spark;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StageSkewTest
{
    private static final long L3 = 32L << 20;

    private final StageSkew skew = new StageSkew();
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
