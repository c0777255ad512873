package io.chiplet.placement;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static io.chiplet.placement.SkewHint.CONSOLIDATE;
import static io.chiplet.placement.SkewHint.NONE;
import static io.chiplet.placement.SkewHint.SPREAD;
import static org.assertj.core.api.Assertions.assertThat;

class SkewEvidenceTest
{
    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    @Test
    void aSmallQueryIsNoEvidence()
    {
        // The query of issue 27: two tasks, four rows.
        assertThat(SkewEvidence.enoughWork(2, 4, Duration.ofMillis(20))).isFalse();
        assertThat(SkewEvidence.enoughWork(8, 4, Duration.ofMillis(20))).isFalse();
        assertThat(SkewEvidence.enoughWork(3, 10_000_000, Duration.ofMinutes(1))).isFalse();
        assertThat(SkewEvidence.enoughWork(4, 50_000, Duration.ZERO)).isTrue();
        assertThat(SkewEvidence.enoughWork(4, 49_999, Duration.ofSeconds(4))).isFalse();
        assertThat(SkewEvidence.enoughWork(4, 10, Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void oneQueryOfAShapeChangesNothingTwoDo()
    {
        assertThat(SkewEvidence.shapeHint(List.of(seen(1, SPREAD)), NOW, 4)).isEqualTo(NONE);
        assertThat(SkewEvidence.shapeHint(List.of(seen(2, SPREAD), seen(1, NONE)), NOW, 4)).isEqualTo(SPREAD);
        assertThat(SkewEvidence.shapeHint(List.of(seen(2, NONE), seen(1, CONSOLIDATE)), NOW, 4)).isEqualTo(CONSOLIDATE);
        assertThat(SkewEvidence.shapeHint(List.of(seen(2, CONSOLIDATE), seen(1, NONE)), NOW, 4)).isEqualTo(NONE);
    }

    @Test
    void evidenceAgesOutAndLeavesTheWindow()
    {
        Duration old = SkewEvidence.MAX_AGE.plusMinutes(1);
        List<SkewEvidence.Observation> aged = List.of(new SkewEvidence.Observation(NOW.minus(old), SPREAD), seen(1, NONE), seen(0, NONE));
        assertThat(SkewEvidence.shapeHint(aged, NOW, 4)).isEqualTo(NONE);
        assertThat(SkewEvidence.shapeHint(aged, NOW.minus(Duration.ofMinutes(2)), 4)).isEqualTo(SPREAD);
        List<SkewEvidence.Observation> spreadThenCalm = List.of(seen(5, SPREAD), seen(4, NONE), seen(3, NONE));
        assertThat(SkewEvidence.shapeHint(spreadThenCalm, NOW, 2)).isEqualTo(NONE);
        assertThat(SkewEvidence.shapeHint(spreadThenCalm, NOW, 3)).isEqualTo(SPREAD);
    }

    @Test
    void queryAndCommonHints()
    {
        assertThat(SkewEvidence.queryHint(List.of(NONE, SPREAD, CONSOLIDATE))).isEqualTo(SPREAD);
        assertThat(SkewEvidence.queryHint(List.of(CONSOLIDATE, CONSOLIDATE))).isEqualTo(CONSOLIDATE);
        assertThat(SkewEvidence.queryHint(List.of(CONSOLIDATE, NONE))).isEqualTo(NONE);
        assertThat(SkewEvidence.queryHint(List.of())).isEqualTo(NONE);
        assertThat(SkewEvidence.commonHint(Set.of(SPREAD))).isEqualTo(SPREAD);
        assertThat(SkewEvidence.commonHint(List.of(SPREAD, NONE))).isEqualTo(NONE);
        assertThat(SkewEvidence.commonHint(List.of())).isEqualTo(NONE);
    }

    private static SkewEvidence.Observation seen(int minutesAgo, SkewHint hint)
    {
        return new SkewEvidence.Observation(NOW.minus(Duration.ofMinutes(minutesAgo)), hint);
    }
}
