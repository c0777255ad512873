package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A stratum's speed-up interval, evidence rule and verdict: the words {@link MeasureReport#verdict()} uses overall. */
class StratumFigureTest
{
    @Test
    void theSpeedUpIntervalIsTheTimeRatiosInverted()
    {
        // time ratio 0.8 (0.5 to 0.625): speed-up 1.25x, 1.6x to 2x
        StratumFigure figure = new StratumFigure("q1, share 10%", 5, 5, "bytes", 0.8, 0.5, 0.625, 1);
        assertThat(figure.speedUp()).isCloseTo(1.25, within(1e-12));
        assertThat(figure.speedUpLow()).isCloseTo(1.6, within(1e-12));
        assertThat(figure.speedUpHigh()).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void enoughNeedsTheMinimumInBothArms()
    {
        StratumFigure figure = new StratumFigure("q1", 3, 2, "unit", 0.8, 0.5, 0.625, 1);
        assertThat(figure.enough(2)).isTrue();
        assertThat(figure.enough(3)).isFalse();
        assertThat(figure.verdict(3)).isEqualTo("not enough evidence yet");
    }

    @Test
    void theVerdictFollowsWhereTheIntervalLies()
    {
        assertThat(new StratumFigure("fast", 4, 4, "unit", 0.8, 0.5, 0.9, 1).verdict(2)).isEqualTo("placed faster");
        assertThat(new StratumFigure("slow", 4, 4, "unit", 1.2, 1.1, 1.3, 1).verdict(2)).isEqualTo("placed slower");
        assertThat(new StratumFigure("noise", 4, 4, "unit", 1.0, 0.9, 1.1, 1).verdict(2)).isEqualTo("noise explains it");
        // An interval touching 1 is noise, as the overall verdict has it.
        assertThat(new StratumFigure("edge", 4, 4, "unit", 0.9, 0.8, 1.0, 1).verdict(2)).isEqualTo("noise explains it");
    }
}
