package io.chiplet.trino.skew;

import io.chiplet.placement.SkewHint;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SkewFeedbackTest
{
    @Test
    void aSkewedQueryOfTheSourceGivesSpread()
    {
        List<CompletedStageSkew> recent = List.of(
                stage("q1", "etl", 3, "none"),
                stage("q1", "etl", 3, "spread"),
                stage("q2", "bi", 3, "none"));

        assertThat(SkewFeedback.hintFor("etl", recent, 4)).isEqualTo(SkewHint.SPREAD);
        assertThat(SkewFeedback.hintFor("bi", recent, 4)).isEqualTo(SkewHint.NONE);
        assertThat(SkewFeedback.hintFor("adhoc", recent, 4)).isEqualTo(SkewHint.NONE);
    }

    @Test
    void spreadOutlivesTheQueryItHelpedUntilItLeavesTheWindow()
    {
        List<CompletedStageSkew> recent = new ArrayList<>(List.of(stage("q1", "etl", 3, "spread")));
        for (int query = 2; query <= 4; query++) {
            recent.add(stage("q" + query, "etl", 3, "none"));
            assertThat(SkewFeedback.hintFor("etl", recent, 4)).isEqualTo(SkewHint.SPREAD);
        }
        recent.add(stage("q5", "etl", 3, "none"));

        assertThat(SkewFeedback.hintFor("etl", recent, 4)).isEqualTo(SkewHint.NONE);
        assertThat(SkewFeedback.hintFor("etl", recent, 5)).isEqualTo(SkewHint.SPREAD);
    }

    @Test
    void consolidateNeedsEveryStageOfTheLatestQueryThin()
    {
        List<CompletedStageSkew> thin = List.of(stage("q1", "etl", 3, "consolidate"), stage("q1", "etl", 3, "consolidate"));
        List<CompletedStageSkew> mixed = List.of(stage("q1", "etl", 3, "consolidate"), stage("q1", "etl", 3, "none"));
        List<CompletedStageSkew> thinAfterBusy = List.of(stage("q1", "etl", 3, "none"), stage("q2", "etl", 3, "consolidate"));

        assertThat(SkewFeedback.hintFor("etl", thin, 4)).isEqualTo(SkewHint.CONSOLIDATE);
        assertThat(SkewFeedback.hintFor("etl", mixed, 4)).isEqualTo(SkewHint.NONE);
        assertThat(SkewFeedback.hintFor("etl", thinAfterBusy, 4)).isEqualTo(SkewHint.CONSOLIDATE);
    }

    @Test
    void aHintThatIsNoneOfOursAsksForNothing()
    {
        assertThat(SkewFeedback.hintFor("etl", List.of(stage("q1", "etl", 3, "shuffle")), 4)).isEqualTo(SkewHint.NONE);
    }

    @Test
    void queriesWithoutSourceShareNoHint()
    {
        assertThat(SkewFeedback.hintFor("", List.of(stage("q1", "", 3, "spread")), 4)).isEqualTo(SkewHint.NONE);
    }

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
