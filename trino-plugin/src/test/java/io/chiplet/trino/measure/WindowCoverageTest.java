package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmEstimate;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.RatioEstimate;
import io.chiplet.measure.UnitObservation;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Simulated switchback runs in which the queries of one window share a random window effect (the machine's load in
 * that window): with no effect of placement the per-window analysis's 95 % interval holds 1 at about its stated rate,
 * while the same queries analysed one by one (as if independent) make an interval far too narrow.
 */
class WindowCoverageTest
{
    private static final long WINDOW = 1000;
    private static final int RUNS = 200;
    private static final int WINDOWS = 80;
    private static final int QUERIES_PER_WINDOW = 5;
    /** The window's shared load: lognormal, 10 %; each query's own scatter 2 %. */
    private static final double WINDOW_SIGMA = 0.10;
    private static final double QUERY_SIGMA = 0.02;

    @Test
    void perWindowIntervalCoversAtItsStatedRateWherePerQueryWouldNot()
    {
        int windowCovers = 0;
        int queryCovers = 0;
        int estimated = 0;
        for (int run = 0; run < RUNS; run++) {
            Random random = new Random(1000 + run);
            MutableClock clock = new MutableClock(1_000_000L * WINDOW + 100);
            QueryMeasurements measurements = new QueryMeasurements(clock, NOPLogger.NOP_LOGGER);
            measurements.start("chiplet", MeasureKeys.parse(Map.of(MeasureKeys.WINDOW, WINDOW + "ms", MeasureKeys.CONTROL_SHARE, "0.5",
                    MeasureKeys.SEED, Long.toString(run), MeasureKeys.GUARD, "always")), 99, () -> {});
            // The per-query analysis, for contrast: each query its own unit, stratum its share as the window's.
            Measurement perQuery = new Measurement(MeasureKeys.parse(Map.of(MeasureKeys.GUARD, "always")).plan(99));
            long first = measurements.schedule().orElseThrow().entries().getFirst().fromWindow();
            for (long window = first; window < first + WINDOWS; window++) {
                double load = Math.exp(WINDOW_SIGMA * random.nextGaussian());
                WindowSchedule schedule = measurements.schedule().orElseThrow();
                Arm arm = schedule.armOfWindow(window);
                String stratum = schedule.drawnArmOfWindow(window).stratum("s");
                for (int i = 0; i < QUERIES_PER_WINDOW; i++) {
                    long start = window * WINDOW + 150 + i * 150;
                    clock.set(start + 100);
                    double cpu = 0.2 * load * Math.exp(QUERY_SIGMA * random.nextGaussian());
                    measurements.record(new CompletedQuery("q", "s", "SELECT s", start, start + 100, Math.round(cpu * 1e9), 1000, 10, false));
                    perQuery.record(new UnitObservation(stratum, arm, cpu, cpu, 0, 1000, 10));
                    WindowSchedule now = measurements.schedule().orElseThrow();
                    measurements.confirmed(now.epoch(), now.version(), true, Map.of());
                }
            }
            clock.set((first + WINDOWS + 3) * WINDOW);
            ArmEstimate byWindow = measurements.report().estimate();
            perQuery.update();
            ArmEstimate byQuery = perQuery.estimate();
            if (byWindow.enough() && byQuery.enough()) {
                estimated++;
                windowCovers += holdsOne(byWindow.timeRatio().orElseThrow()) ? 1 : 0;
                queryCovers += holdsOne(byQuery.timeRatio().orElseThrow()) ? 1 : 0;
            }
        }
        assertThat(estimated).as("runs with enough windows per arm").isGreaterThanOrEqualTo(RUNS * 9 / 10);
        double windowCoverage = (double) windowCovers / estimated;
        double queryCoverage = (double) queryCovers / estimated;
        System.out.printf(java.util.Locale.ROOT, "WindowCoverageTest: %d runs estimated, per-window coverage %.3f, per-query coverage %.3f%n",
                estimated, windowCoverage, queryCoverage);
        // Binomial s.d. of a 95 % rate over 180+ runs: 1.6 points; the bounds allow three of them.
        assertThat(windowCoverage).as("per-window coverage").isBetween(0.90, 1.0);
        assertThat(queryCoverage).as("per-query coverage, queries of one window treated as independent").isLessThan(0.80);
    }

    private static boolean holdsOne(RatioEstimate ratio)
    {
        return ratio.low() <= 1 && ratio.high() >= 1;
    }
}
