package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proof that the estimate tells the truth about the job, on simulated runs that are not the estimator's own model
 * ({@link SimulatedCluster}: time not proportional to work, 5 % stragglers 2-20x slower, size-dependent effects, a load
 * shared by each window's units that also strengthens the effect, warm-up): over 1000 seeded runs per check, the 95 %
 * interval holds the true job speed-up (summed control time over summed placed time of all the work done, from each
 * unit's two potential times) at its stated rate, and the guard stops a run whose true job speed-up is 1 in at most
 * {@link PlacementGuard#FALSE_STOP_BOUND} of runs. Each check asserts within 1.5 points of its promise (a binomial
 * s.d. of 1000 runs is 0.7 points at 95 %, 0.5 at 2.5 %). The printed rows are docs/measuring.md's proof table.
 */
class JobSpeedUpSimulationTest
{
    private static final int RUNS = 1000;

    /** Coverage and false stops of one scenario. */
    private record Rates(double coverage, double falseStops, double medianDetectable, double meanControlClusters, double perUnitFaster, double jobFaster,
            double jobPointSlower, double meanTruth)
    {
    }

    private static Rates rates(String name, SimulatedCluster simulation, double share, boolean guard)
    {
        int covered = 0;
        int estimated = 0;
        int stopped = 0;
        int perUnitFaster = 0;
        int jobFaster = 0;
        int jobPointSlower = 0;
        java.util.List<Double> detectable = new java.util.ArrayList<>();
        double clusters = 0;
        double truth = 0;
        for (int run = 0; run < RUNS; run++) {
            SimulatedCluster.Run always = simulation.run(new MeasurementPlan(true, ControlFraction.of(share), GuardMode.ALWAYS, run, 20), 10_000 + run);
            ArmEstimate estimate = always.measurement().estimate();
            truth += always.trueSpeedUp();
            if (estimate.enough()) {
                estimated++;
                RatioEstimate ratio = estimate.timeRatio().orElseThrow();
                double trueRatio = 1 / always.trueSpeedUp();
                covered += ratio.low() <= trueRatio && trueRatio <= ratio.high() ? 1 : 0;
                detectable.add(estimate.minimumDetectableEffect().orElseThrow());
                clusters += estimate.controlClusters();
                perUnitFaster += estimate.perUnit().orElseThrow().high() < 1 ? 1 : 0;
                jobFaster += estimate.placedFaster() ? 1 : 0;
                jobPointSlower += ratio.ratio() > 1 ? 1 : 0;
            }
            if (guard && !simulation.run(new MeasurementPlan(true, ControlFraction.of(share), GuardMode.AUTO, run, 20), 50_000 + run).measurement().guard().placing()) {
                stopped++;
            }
        }
        assertThat(estimated).as("runs with an estimate").isGreaterThanOrEqualTo(RUNS * 95 / 100);
        java.util.Collections.sort(detectable);
        Rates rates = new Rates(covered / (double) estimated, stopped / (double) RUNS, detectable.get(detectable.size() / 2), clusters / estimated, perUnitFaster / (double) estimated,
                jobFaster / (double) estimated, jobPointSlower / (double) estimated, truth / RUNS);
        System.out.printf(Locale.ROOT, "| %s | %.3f | %.1f %% | %s | \u00b1%.0f %% | %.0f |%n", name, rates.meanTruth(), rates.coverage() * 100,
                guard ? String.format(Locale.ROOT, "%.1f %%", rates.falseStops() * 100) : "-", rates.medianDetectable() * 100, rates.meanControlClusters());
        return rates;
    }

    private static void assertPromisesKept(Rates rates, boolean guard)
    {
        // 95 % stated: at least 93.5 %, and not absurdly wide (at most 99 %).
        assertThat(rates.coverage()).as("coverage of the true job speed-up").isBetween(0.935, 0.99);
        if (guard) {
            assertThat(rates.falseStops()).as("false stops, bound 2.5 %").isLessThanOrEqualTo(PlacementGuard.FALSE_STOP_BOUND + 0.015);
        }
    }

    /** An effect of {@code shape} scaled so that the job's true speed-up in this population is {@code speedUp}. */
    private static DoubleUnaryOperator calibrated(SimulatedCluster simulation, DoubleUnaryOperator shape, double speedUp)
    {
        double scale = simulation.populationSpeedUp(shape, 400_000, 1) / speedUp;
        return relative -> shape.applyAsDouble(relative) * scale;
    }

    /** Placement 15 % faster on big units, 15 % slower on small ones (a tanh of the log size), scaled to a job speed-up of 1. */
    private static DoubleUnaryOperator gainOnBigLossOnSmall(SimulatedCluster simulation, double speedUp)
    {
        return calibrated(simulation, relative -> Math.exp(-0.15 * Math.tanh(Math.log(relative))), speedUp);
    }

    @Test
    void sparkSwitchbackPerHostWithHeavyTailsAndSharedLoad()
    {
        Rates rates = rates("Spark, switchback per host, no effect, share 0.25", SimulatedCluster.spark(), 0.25, true);
        assertPromisesKept(rates, true);
    }

    @Test
    void sparkSwitchbackAtAnEvenShare()
    {
        Rates rates = rates("Spark, switchback per host, no effect, share 0.5", SimulatedCluster.spark(), 0.5, true);
        assertPromisesKept(rates, true);
    }

    @Test
    void sizeDependentEffectsWhoseJobEffectIsNoneDoNotStopPlacement()
    {
        SimulatedCluster simulation = SimulatedCluster.spark();
        Rates rates = rates("Spark, gain on big tasks and loss on small, job 1.00x, share 0.5", simulation.withEffect(gainOnBigLossOnSmall(simulation, 1.0)), 0.5, true);
        assertPromisesKept(rates, true);
    }

    @Test
    void aSizeDependentGainIsCoveredAsTheJobSeesIt()
    {
        SimulatedCluster simulation = SimulatedCluster.spark();
        Rates rates = rates("Spark, gain on big tasks and loss on small, job 1.10x, share 0.25", simulation.withEffect(gainOnBigLossOnSmall(simulation, 1.10)), 0.25, false);
        assertPromisesKept(rates, false);
        assertThat(rates.meanTruth()).isBetween(1.08, 1.12);
    }

    @Test
    void manyTrinoQueryShapesSharingWindows()
    {
        Rates rates = rates("Trino, 10 shapes sharing each window, no effect, share 0.5", SimulatedCluster.trino(), 0.5, true);
        assertPromisesKept(rates, true);
    }

    @Test
    void taskModeAtTheDefaultShare()
    {
        Rates rates = rates("Spark task mode (each task its own unit), no effect, share 0.1", SimulatedCluster.spark().perUnit(), 0.1, true);
        assertPromisesKept(rates, true);
    }

    /** What the guard's caution costs: how often it stops a run that placement truly slows down, with heavy tails. */
    @Test
    void theGuardStopsATrueHarm()
    {
        SimulatedCluster simulation = SimulatedCluster.spark();
        int runs = 300;
        for (double harm : new double[] {1.3, 1.6}) {
            SimulatedCluster harmed = simulation.withEffect(calibrated(simulation, relative -> harm, 1 / harm));
            int stopped = 0;
            for (int run = 0; run < runs; run++) {
                stopped += harmed.run(new MeasurementPlan(true, ControlFraction.of(0.5), GuardMode.AUTO, run, 20), 70_000 + run).measurement().guard().placing() ? 0 : 1;
            }
            System.out.printf(Locale.ROOT, "| Spark, switchback per host, placed %.1fx slower, share 0.5: the guard stopped placement | %.1f %% of %d runs |%n", harm,
                    100.0 * stopped / runs, runs);
            assertThat(stopped).as("stops of a %.1fx harm", harm).isGreaterThan(harm > 1.5 ? runs / 2 : runs / 10);
        }
    }

    /**
     * The independent check the issue cites: a job truly 0.975x (placement helps its many small tasks and hurts its
     * few big ones, which hold most of the time) was shown as about 1.07x "placed faster" by the per-task geometric
     * mean. The job's figure gets the sign right and never calls it faster beyond its error rate; the per-task figure,
     * kept as a diagnostic, still says "faster".
     */
    @Test
    void aJobTrulySlowerIsNotShownFasterWhereThePerTaskMeanWouldBe()
    {
        SimulatedCluster simulation = SimulatedCluster.spark().perUnit().withWorkSigma(1.5).withStragglers(0);
        // Per task: 7 % faster at the median size (the geometric mean the old figure showed); slower on big tasks.
        DoubleUnaryOperator shape = relative -> Math.exp(0.25 * Math.tanh(Math.log(relative)));
        double scale = 1 / 1.07;
        double low = 0;
        double high = 1;
        for (int step = 0; step < 30; step++) {
            double gamma = (low + high) / 2;
            double speedUp = simulation.populationSpeedUp(relative -> scale * Math.exp(gamma * Math.tanh(Math.log(relative))), 200_000, 3);
            if (speedUp > 0.975) {
                low = gamma;
            }
            else {
                high = gamma;
            }
        }
        double gamma = (low + high) / 2;
        DoubleUnaryOperator effect = relative -> scale * Math.exp(gamma * Math.tanh(Math.log(relative)));
        Rates rates = rates("Spark task mode, small tasks 7 % faster, big ones slower, job 0.975x, share 0.5", simulation.withEffect(effect), 0.5, false);
        System.out.printf(Locale.ROOT, "  per-task geometric mean 'placed faster' in %.1f %% of runs; job figure 'placed faster' in %.1f %%, its point below 1x in %.1f %%%n",
                rates.perUnitFaster() * 100, rates.jobFaster() * 100, rates.jobPointSlower() * 100);
        assertThat(rates.meanTruth()).isBetween(0.965, 0.985);
        assertPromisesKept(rates, false);
        // The old figure calls it faster in a good share of runs; the job's figure practically never (its error rate, 2.5 % a side).
        assertThat(rates.perUnitFaster()).isGreaterThan(0.2);
        assertThat(rates.jobFaster()).isLessThanOrEqualTo(0.025 + 0.015);
        // The sign: the job's point figure says slower in most runs.
        assertThat(rates.jobPointSlower()).isGreaterThan(0.6);
    }
}
