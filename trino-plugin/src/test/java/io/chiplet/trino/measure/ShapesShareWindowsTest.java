package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmEstimate;
import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.RatioEstimate;
import io.chiplet.measure.UnitObservation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.helpers.NOPLogger;

import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several query shapes run in every window and share its load (issue 32): simulated switchback runs with no effect of
 * placement, through the plugin's own {@link QueryMeasurements}. Each window's observations of different shapes carry
 * the window as their cluster, so the interval and the guard count windows, not shape-window pairs; the same
 * observations treated as independent (each shape-window pair its own unit, as before) are analysed beside them for
 * contrast.
 *
 * <p>The simulation: windows of 1 s at a control share of 0.5 (adaptive: 0.125 once decisive), {@value #WINDOWS}
 * windows a run; in every window each shape runs {@value #QUERIES_PER_SHAPE} queries inside the window; shape
 * {@code i}'s queries cost {@code 0.1 (i + 1)} CPU seconds and read {@code 1000 (i + 1)} bytes; the window's load
 * multiplies every query of the window by a lognormal factor of sigma {@value #WINDOW_SIGMA}, each query by its own of
 * sigma {@value #QUERY_SIGMA}; placement has no effect.
 */
class ShapesShareWindowsTest
{
    private static final long WINDOW = 1000;
    static final int RUNS = 400;
    /** Runs that also analyse the observations as independent, for contrast: far from the bounds, fewer runs tell. */
    static final int CONTRAST_RUNS = 200;
    /** The contrast's guard looks every this many windows (its looks come at 20, 40, 80 ... units of each arm). */
    private static final int CONTRAST_UPDATE_EVERY = 5;
    private static final int WINDOWS = 100;
    private static final int QUERIES_PER_SHAPE = 1;
    private static final double WINDOW_SIGMA = 0.10;
    private static final double QUERY_SIGMA = 0.02;

    /** What one configuration measured over its runs. */
    record Rates(int runs, int estimated, int covers, int contrastRuns, int coversIndependent, int stopsIndependent, int stops)
    {
        double coverage()
        {
            return (double) covers / estimated;
        }

        double coverageIndependent()
        {
            return (double) coversIndependent / contrastRuns;
        }

        double falseStops()
        {
            return (double) stops / runs;
        }

        double falseStopsIndependent()
        {
            return (double) stopsIndependent / contrastRuns;
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 10})
    void windowClusteredIntervalAndGuardHoldTheirRatesWithSeveralShapes(int shapes)
    {
        Rates always = simulate(shapes, "always", RUNS);
        Rates auto = simulate(shapes, "auto", RUNS);
        System.out.printf(Locale.ROOT, "ShapesShareWindowsTest, %d shapes, %d runs: coverage of 1 %.1f %% (s.d. %.1f) clustered by window; guard's false stops "
                        + "%.1f %% (s.d. %.1f) clustered; of %d runs analysed as independent, coverage %.1f %% (s.d. %.1f), false stops %.1f %% (s.d. %.1f)%n",
                shapes, RUNS, 100 * always.coverage(), 100 * sd(always.coverage(), always.estimated()), 100 * auto.falseStops(),
                100 * sd(auto.falseStops(), auto.runs()), CONTRAST_RUNS, 100 * always.coverageIndependent(), 100 * sd(always.coverageIndependent(), CONTRAST_RUNS),
                100 * auto.falseStopsIndependent(), 100 * sd(auto.falseStopsIndependent(), CONTRAST_RUNS));
        assertThat(always.estimated()).as("runs with an estimate").isEqualTo(RUNS);
        // At 400 runs the binomial s.d. is 1.1 points at 95 % and 0.8 at 2.5 %; the contrast's, at 200 runs, under 3.6 points.
        assertThat(always.coverage()).as("coverage of 1, clustered by window").isGreaterThanOrEqualTo(0.935);
        assertThat(auto.falseStops()).as("false stops, clustered by window").isLessThanOrEqualTo(0.04);
        // The defect this fixes, so that the contrast stays real: treated as independent, far too narrow.
        assertThat(always.coverageIndependent()).as("coverage as independent").isLessThan(0.88);
        assertThat(auto.falseStopsIndependent()).as("false stops as independent").isGreaterThan(0.05);
    }

    static double sd(double rate, int runs)
    {
        return Math.sqrt(rate * (1 - rate) / runs);
    }

    static Rates simulate(int shapes, String guard, int runs)
    {
        int estimated = 0;
        int covers = 0;
        int coversIndependent = 0;
        int stops = 0;
        int stopsIndependent = 0;
        for (int run = 0; run < runs; run++) {
            boolean contrast = run < CONTRAST_RUNS;
            Random random = new Random(7919L * shapes + run);
            MutableClock clock = new MutableClock(1_000_000L * WINDOW + 100);
            QueryMeasurements measurements = new QueryMeasurements(clock, NOPLogger.NOP_LOGGER);
            Map<String, String> settings = Map.of(MeasureKeys.WINDOW, WINDOW + "ms", MeasureKeys.CONTROL_SHARE, "0.5",
                    MeasureKeys.SEED, Long.toString(run), MeasureKeys.GUARD, guard);
            measurements.start("chiplet", MeasureKeys.parse(settings), 99, () -> {});
            // The same window observations, each shape-window pair taken as independent (no cluster).
            Measurement independent = new Measurement(MeasureKeys.parse(settings).plan(99));
            long first = measurements.schedule().orElseThrow().entries().getFirst().fromWindow();
            for (long window = first; window < first + WINDOWS; window++) {
                double load = Math.exp(WINDOW_SIGMA * random.nextGaussian());
                WindowSchedule schedule = measurements.schedule().orElseThrow();
                Arm arm = schedule.armOfWindow(window);
                for (int shape = 0; shape < shapes; shape++) {
                    double cpuSum = 0;
                    for (int i = 0; i < QUERIES_PER_SHAPE; i++) {
                        long start = window * WINDOW + 150 + (long) (600.0 * (shape * QUERIES_PER_SHAPE + i) / (shapes * QUERIES_PER_SHAPE));
                        clock.set(start + 100);
                        double cpu = 0.1 * (shape + 1) * load * Math.exp(QUERY_SIGMA * random.nextGaussian());
                        cpuSum += cpu;
                        measurements.record(new CompletedQuery("q", "s" + shape, "SELECT " + shape, start, start + 100, Math.round(cpu * 1e9),
                                1000L * (shape + 1), 10, false));
                        WindowSchedule now = measurements.schedule().orElseThrow();
                        measurements.confirmed(now.epoch(), now.version(), true, Map.of());
                    }
                    if (contrast) {
                        independent.record(new UnitObservation(schedule.drawnArmOfWindow(window).stratum("s" + shape), arm, cpuSum, cpuSum, 0,
                                1000L * (shape + 1) * QUERIES_PER_SHAPE, 10L * QUERIES_PER_SHAPE));
                    }
                }
                if (contrast && guard.equals("auto") && (window - first) % CONTRAST_UPDATE_EVERY == 0) {
                    // Its guard looks as the windows come; an interval alone needs only the last update.
                    independent.update();
                }
            }
            clock.set((first + WINDOWS + 3) * WINDOW);
            MeasureReport report = measurements.report();
            ArmEstimate byWindow = report.estimate();
            if (byWindow.enough()) {
                estimated++;
                covers += holdsOne(byWindow.timeRatio().orElseThrow()) ? 1 : 0;
            }
            stops += report.guard().placing() ? 0 : 1;
            if (contrast) {
                independent.update();
                coversIndependent += independent.estimate().timeRatio().map(ShapesShareWindowsTest::holdsOne).orElse(false) ? 1 : 0;
                stopsIndependent += independent.guard().placing() ? 0 : 1;
            }
        }
        return new Rates(runs, estimated, covers, Math.min(runs, CONTRAST_RUNS), coversIndependent, stopsIndependent, stops);
    }

    private static boolean holdsOne(RatioEstimate ratio)
    {
        return ratio.low() <= 1 && ratio.high() >= 1;
    }
}
