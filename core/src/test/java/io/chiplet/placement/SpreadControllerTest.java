package io.chiplet.placement;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpreadControllerTest
{
    private static final long INTERVAL = SpreadController.Settings.CHARM_INTERVAL_NANOS;

    /** Runs one worker through a trace of remote fills per interval and records its spread after each. */
    private static List<Integer> run(SpreadController controller, long... fills)
    {
        List<Integer> spreads = new ArrayList<>();
        for (long count : fills) {
            controller.beginInterval();
            spreads.add(controller.step(0, count, INTERVAL));
        }
        return spreads;
    }

    @Test
    void widensUnderSustainedHighRateAndNarrowsBack()
    {
        SpreadController controller = new SpreadController(1, 4, SpreadController.Settings.defaults(1));
        List<Integer> spreads = run(controller, 900, 900, 900, 900, 900, 900, 900, 900, 900, 900, 10, 10, 10, 10, 10, 10, 10, 10);
        // Two confirming intervals per step: 1 -> 2 -> 3 -> 4, capped at the chiplet count, then back down to 1.
        assertThat(spreads).containsExactly(1, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 3, 3, 2, 2, 1, 1, 1);
    }

    @Test
    void rateHoveringAtTheThresholdDoesNotOscillate()
    {
        SpreadController controller = new SpreadController(1, 8, SpreadController.Settings.defaults(1));
        long[] hovering = new long[200];
        for (int i = 0; i < hovering.length; i++) {
            hovering[i] = i % 2 == 0 ? 290 : 330;
        }
        assertThat(run(controller, hovering)).containsOnly(1);

        // The paper's form flips on every interval for the same trace.
        SpreadController paper = new SpreadController(1, 8, SpreadController.Settings.paper(1));
        List<Integer> flips = run(paper, hovering);
        assertThat(flips.subList(0, 6)).containsExactly(1, 2, 1, 2, 1, 2);
    }

    @Test
    void rateSwingingAcrossTheBandEveryIntervalNeverConfirms()
    {
        SpreadController controller = new SpreadController(1, 8, SpreadController.Settings.defaults(1));
        long[] swinging = new long[100];
        for (int i = 0; i < swinging.length; i++) {
            swinging[i] = i % 2 == 0 ? 100 : 900;
        }
        assertThat(run(controller, swinging)).containsOnly(1);
    }

    @Test
    void scalesCountsToTheInterval()
    {
        SpreadController controller = new SpreadController(1, 8, new SpreadController.Settings(INTERVAL, 300, 0.2, 1, 1));
        // 200 fills in a quarter interval is 800 per interval: above the band.
        assertThat(controller.step(0, 200, INTERVAL / 4)).isEqualTo(2);
        controller.beginInterval();
        // 400 fills over two intervals is 200 per interval: below the band.
        assertThat(controller.step(0, 400, INTERVAL * 2)).isEqualTo(1);
    }

    @Test
    void boundsMovesPerIntervalAndKeepsTheEvidence()
    {
        SpreadController controller = new SpreadController(8, 8, new SpreadController.Settings(INTERVAL, 300, 0.2, 1, 2));
        controller.beginInterval();
        int moved = 0;
        for (int w = 0; w < 8; w++) {
            moved += controller.step(w, 1000, INTERVAL) == 2 ? 1 : 0;
        }
        assertThat(moved).isEqualTo(2);
        assertThat(controller.movesThisInterval()).isEqualTo(2);
        controller.beginInterval();
        // Workers held back move as soon as there is budget again.
        assertThat(controller.step(2, 1000, INTERVAL)).isEqualTo(2);
        int[] spreads = new int[8];
        controller.copySpreads(spreads);
        assertThat(spreads).containsExactly(2, 2, 2, 1, 1, 1, 1, 1);
    }

    @Test
    void rejectsBadSettings()
    {
        assertThatThrownBy(() -> new SpreadController.Settings(INTERVAL, 300, 1.0, 1, 1)).hasMessageContaining("hysteresis");
        assertThatThrownBy(() -> new SpreadController(0, 4, SpreadController.Settings.defaults(1))).hasMessageContaining("workers");
        SpreadController controller = new SpreadController(1, 4, SpreadController.Settings.defaults(1));
        assertThatThrownBy(() -> controller.step(0, -1, INTERVAL)).hasMessageContaining("negative");
    }

    @Test
    void regroupedCarriesWorkersOnAndStartsNewOnesAfresh()
    {
        SpreadController.Settings settings = new SpreadController.Settings(INTERVAL, 300, 0.2, 2, 4);
        SpreadController controller = new SpreadController(2, 4, settings);
        for (int i = 0; i < 2; i++) {
            controller.beginInterval();
            controller.step(0, 900, INTERVAL);
            controller.step(1, 900, INTERVAL);
        }
        controller.beginInterval();
        controller.step(1, 900, INTERVAL);
        assertThat(controller.spread(0)).isEqualTo(2);
        // worker 1 at spread 2 with one interval of evidence towards 3
        SpreadController next = controller.regrouped(new int[] {-1, 1}, settings);
        assertThat(next.workers()).isEqualTo(2);
        assertThat(next.spread(0)).isEqualTo(1);
        assertThat(next.spread(1)).isEqualTo(2);
        next.beginInterval();
        assertThat(next.step(1, 900, INTERVAL)).isEqualTo(3);
        assertThatThrownBy(() -> controller.regrouped(new int[] {2}, SpreadController.Settings.defaults(1))).hasMessageContaining("only 2");
    }

    @Test
    void charmSettingsAroundAnOperatorsIntervalAndThreshold()
    {
        SpreadController.Settings settings = SpreadController.Settings.charm(100_000_000L, 50, 8);
        assertThat(settings).isEqualTo(new SpreadController.Settings(100_000_000L, 50, 0.2, 2, 2));
        assertThat(SpreadController.Settings.charm(100_000_000L, 0, 8).threshold()).isPositive();
        assertThatThrownBy(() -> SpreadController.Settings.charm(100_000_000L, -1, 8)).hasMessageContaining("must not be negative");
    }
}
