package io.chiplet.trino.skew;

import io.chiplet.placement.SkewHint;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SkewFeedbackTest
{
    @Test
    void observedNodesAreTheWidestStage()
    {
        assertThat(SkewFeedback.observedTaskNodes(List.of())).isEmpty();
        assertThat(SkewFeedback.observedTaskNodes(List.of(stage("q1", "a", 2, "none"), stage("q2", "b", 5, "none"), stage("q3", "a", 3, "none"))))
                .hasValue(5);
    }

    @Test
    void historyKeepsTheLatestStages()
    {
        SkewHistory history = new SkewHistory(2);
        history.record(List.of(stage("q1", "a", 2, "none"), stage("q2", "a", 2, "none")));
        history.record(List.of(stage("q3", "a", 2, "spread")));

        assertThat(history.recent()).extracting(CompletedStageSkew::queryId).containsExactly("q2", "q3");
    }

    private static CompletedStageSkew stage(String queryId, String source, int tasks, String hint)
    {
        return new CompletedStageSkew(queryId, source, 1, tasks, 100_000, 1.0, 1.0, 0.0, hint);
    }
}
