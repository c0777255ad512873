package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PairedBootstrapTest
{
    @Test
    void eachQueryWeighsTheSameWhateverItsRounds()
    {
        // q1: ratios 2 and 2 over two rounds; q2: 0.5 once. Mean of the queries' log means: (ln 2 + ln 0.5) / 2 = 0.
        RatioEstimate estimate = PairedBootstrap.standard().estimate(List.of(
                List.of(new TimedPair(2, 1), new TimedPair(4, 2)),
                List.of(new TimedPair(1, 2))));

        assertThat(estimate.ratio()).isCloseTo(1.0, within(1e-12));
        assertThat(estimate.groups()).isEqualTo(2);
        assertThat(estimate.pairs()).isEqualTo(3);
        assertThat(estimate.pairSpread()).isCloseTo(0.0, within(1e-12));
        // Resampling the two queries gives 0.5, 1 or 2 with probabilities 1/4, 1/2, 1/4: the 95 % interval spans both ends.
        assertThat(estimate.low()).isCloseTo(0.5, within(1e-9));
        assertThat(estimate.high()).isCloseTo(2.0, within(1e-9));
        assertThat(estimate.noiseExplains()).isTrue();
    }

    @Test
    void aConsistentDifferenceIsResolvedAndNoiseIsNot()
    {
        Random noise = new Random(7);
        RatioEstimate slower = PairedBootstrap.standard().estimate(groups(22, 5, 1.10, 0.02, noise));
        RatioEstimate even = PairedBootstrap.standard().estimate(groups(22, 5, 1.00, 0.10, noise));

        assertThat(slower.ratio()).isCloseTo(1.10, within(0.01));
        assertThat(slower.noiseExplains()).isFalse();
        assertThat(slower.low()).isGreaterThan(1.0);
        assertThat(slower.within(1.05, 1.15)).isTrue();
        assertThat(even.noiseExplains()).isTrue();
        // Ten per cent noise per pair shows as such, and widens the interval beyond the quiet one's.
        assertThat(even.pairSpread()).isCloseTo(0.10, within(0.02));
        assertThat(even.width()).isGreaterThan(slower.width());
    }

    @Test
    void moreRoundsNarrowTheInterval()
    {
        Random noise = new Random(11);
        RatioEstimate few = PairedBootstrap.standard().estimate(groups(22, 2, 1.0, 0.08, noise));
        RatioEstimate many = PairedBootstrap.standard().estimate(groups(22, 20, 1.0, 0.08, noise));

        assertThat(many.width()).isLessThan(few.width() / 2);
    }

    @Test
    void theSameTimingsAndSeedGiveTheSameIntervalAndAnotherSeedNearlySo()
    {
        List<List<TimedPair>> timings = groups(10, 3, 1.0, 0.05, new Random(3));
        RatioEstimate first = new PairedBootstrap(2_000, 0.95, 42).estimate(timings);
        RatioEstimate again = new PairedBootstrap(2_000, 0.95, 42).estimate(timings);
        RatioEstimate other = new PairedBootstrap(2_000, 0.95, 43).estimate(timings);

        assertThat(again).isEqualTo(first);
        assertThat(other.ratio()).isEqualTo(first.ratio());
        assertThat(other.low()).isCloseTo(first.low(), within(0.01)).isNotEqualTo(first.low());
    }

    @Test
    void aNarrowerConfidenceGivesANarrowerInterval()
    {
        List<List<TimedPair>> timings = groups(10, 3, 1.0, 0.05, new Random(5));

        assertThat(new PairedBootstrap(5_000, 0.80, 1).estimate(timings).width())
                .isLessThan(new PairedBootstrap(5_000, 0.95, 1).estimate(timings).width());
    }

    @Test
    void rejectsWhatItCannotEstimate()
    {
        assertThatThrownBy(() -> PairedBootstrap.standard().estimate(List.of())).hasMessage("expected at least one group of timings");
        assertThatThrownBy(() -> PairedBootstrap.standard().estimate(List.of(List.of(new TimedPair(1, 1)), List.of())))
                .hasMessage("group 2 has no timings");
        assertThatThrownBy(() -> new TimedPair(0, 1)).hasMessage("expected two positive finite times, got with 0.0 and without 1.0");
        assertThatThrownBy(() -> new TimedPair(1, Double.NaN)).hasMessageContaining("without NaN");
        assertThatThrownBy(() -> new PairedBootstrap(10, 0.95, 1)).hasMessage("expected at least 100 bootstrap resamples, got 10");
        assertThatThrownBy(() -> new PairedBootstrap(1_000, 1.0, 1)).hasMessage("expected a confidence between 0 and 1, got 1.0");
    }

    /** {@code queries} groups of {@code rounds} pairs whose ratios scatter log-normally around {@code ratio}. */
    private static List<List<TimedPair>> groups(int queries, int rounds, double ratio, double noise, Random random)
    {
        List<List<TimedPair>> groups = new ArrayList<>();
        for (int q = 0; q < queries; q++) {
            double seconds = 0.1 + q;
            List<TimedPair> pairs = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                pairs.add(new TimedPair(seconds * ratio * Math.exp(noise * random.nextGaussian()), seconds));
            }
            groups.add(pairs);
        }
        return groups;
    }
}
