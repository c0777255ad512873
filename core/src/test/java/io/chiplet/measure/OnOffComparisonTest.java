package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OnOffComparisonTest
{
    @Test
    void mediansOverRoundsPerQuery()
    {
        // q1: medians 2.0 on, 1.0 off (ratio 2); q6: medians 1.0 on, 2.0 off (ratio 0.5).
        OnOffComparison comparison = new OnOffComparison(List.of(1, 6),
                List.of(Map.of(1, 2.0, 6, 1.0), Map.of(1, 9.0, 6, 0.5), Map.of(1, 1.5, 6, 1.2)),
                List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 0.9, 6, 2.5), Map.of(1, 1.1, 6, 1.0)));

        assertThat(comparison.rounds()).isEqualTo(3);
        assertThat(comparison.medianOn(1)).isEqualTo(2.0);
        assertThat(comparison.medianOff(1)).isEqualTo(1.0);
        assertThat(comparison.ratio(1)).isEqualTo(2.0);
        assertThat(comparison.ratio(6)).isEqualTo(0.5);
    }

    @Test
    void anEvenNumberOfRoundsTakesTheMeanOfTheMiddleTwo()
    {
        OnOffComparison comparison = new OnOffComparison(List.of(3),
                List.of(Map.of(3, 1.0), Map.of(3, 4.0), Map.of(3, 2.0), Map.of(3, 100.0)),
                List.of(Map.of(3, 2.0), Map.of(3, 2.0), Map.of(3, 2.0), Map.of(3, 2.0)));

        assertThat(comparison.medianOn(3)).isEqualTo(3.0);
    }

    @Test
    void pairsEachQuerysOnAndOffTimesOfTheSameRound()
    {
        OnOffComparison comparison = new OnOffComparison(List.of(1, 6),
                List.of(Map.of(1, 2.0, 6, 1.0), Map.of(1, 9.0, 6, 0.5)),
                List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 0.9, 6, 2.5)));

        assertThat(comparison.pairs()).containsExactly(
                List.of(new TimedPair(2.0, 1.0), new TimedPair(9.0, 0.9)),
                List.of(new TimedPair(1.0, 2.0), new TimedPair(0.5, 2.5)));
    }

    @Test
    void theGeometricMeanIsOfRatiosNotOfTimes()
    {
        // A long query 10 % slower and a short one 10 % faster: the times' sums would say "slower", the ratios say even.
        OnOffComparison comparison = new OnOffComparison(List.of(1, 2),
                List.of(Map.of(1, 110.0, 2, 1.0 / 1.1)),
                List.of(Map.of(1, 100.0, 2, 1.0)));

        assertThat(comparison.estimate(PairedBootstrap.standard()).ratio()).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void rejectsMissingOrUnusableTimes()
    {
        assertThatThrownBy(() -> new OnOffComparison(List.of(1), List.of(Map.of(1, 1.0)), List.of()))
                .hasMessage("expected as many rounds on as off, at least one, but got 1 on and 0 off");
        assertThatThrownBy(() -> new OnOffComparison(List.of(1, 2), List.of(Map.of(1, 1.0, 2, 1.0)), List.of(Map.of(1, 1.0))))
                .hasMessage("round 1, plugin off: expected a positive time for q2, got null");
        assertThatThrownBy(() -> new OnOffComparison(List.of(1), List.of(Map.of(1, 0.0)), List.of(Map.of(1, 1.0))))
                .hasMessage("round 1, plugin on: expected a positive time for q1, got 0.0");
        assertThatThrownBy(() -> new OnOffComparison(List.of(), List.of(Map.of()), List.of(Map.of()))).hasMessage("expected at least one query");
        OnOffComparison comparison = new OnOffComparison(List.of(1), List.of(Map.of(1, 1.0, 2, 1.0)), List.of(Map.of(1, 1.0)));
        assertThatThrownBy(() -> comparison.ratio(2)).hasMessage("q2 was not measured; measured [1]");
    }
}
