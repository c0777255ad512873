package io.chiplet.measure;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The independent proof of the in-place measurement (issue 32, {@code docs/measurement-proof.md}): on
 * {@link ScheduledCluster}'s simulated runs, which are not the estimator's model, for Spark's design (switchback per
 * host, clusters host and window) and Trino's (switchback of the whole cluster, several query shapes per window,
 * clusters windows):
 * <ul>
 *   <li>the 95 % interval holds the job's true speed-up (computed from every unit's two potential times) in at least
 *   93.5 % of runs, where placement helps big units and hurts small ones, and holds the compared units' truth as
 *   often; Spark's design with its window rule ({@link WindowLength}: windows grow to at least 4 times the finished
 *   tasks' 90th percentile run time, from the next boundary on), without which the long tasks span a 4 s window, are
 *   left out, and the estimate leans towards 1;</li>
 *   <li>with no effect at all, the guard stops placement in at most 4 % of runs (its promise 2.5 %, plus 1.5 points);</li>
 *   <li>the power at a few true effects is printed (no promise; the docs give it).</li>
 * </ul>
 * Run counts are chosen to keep the whole under some tens of seconds: {@value #COVERAGE_RUNS} runs for coverage and
 * false stops (binomial s.d. 0.7 points at 95 %, 0.5 at 2.5 %), {@value #POWER_RUNS} for each power figure.
 */
class MeasurementProofTest
{
    static final int COVERAGE_RUNS = 1000;
    static final int POWER_RUNS = 200;
    /** Runs of the alternative rule for work spanning a switch (printed, not asserted). */
    static final int SPAN_RULE_RUNS = 500;
    /** Size-dependent: neutral at the median unit, 10 % faster at 3x the median's work, 10 % slower at a third. */
    static final ScheduledCluster SIZE_DEPENDENT = new ScheduledCluster(1.0, 0.1);
    static final double[] POWER_GAINS = {0.98, 0.95, 0.90};

    enum Design
    {
        SPARK, TRINO;

        ScheduledCluster.Outcome run(ScheduledCluster cluster, GuardMode guard, long seed)
        {
            MeasurementPlan plan = ScheduledCluster.plan(guard, seed);
            return this == SPARK ? cluster.spark(plan, 1_000_003L * seed + 17) : cluster.trino(plan, 1_000_003L * seed + 17);
        }
    }

    static double sd(double rate, int runs)
    {
        return Math.sqrt(rate * (1 - rate) / runs);
    }

    @ParameterizedTest
    @EnumSource(Design.class)
    void intervalHoldsTheJobsTrueSpeedUpAndTheGuardKeepsItsPromise(Design design)
    {
        int covered = 0;
        int coveredPerUnit = 0;
        int coveredCompared = 0;
        int estimated = 0;
        double truthSum = 0;
        double secondsSum = 0;
        int[] exponents = new int[WindowLength.DEFAULT_MAX_EXPONENT + 1];
        long leftOut = 0;
        double errorSum = 0;
        double errorSquares = 0;
        double seSquares = 0;
        for (int run = 0; run < COVERAGE_RUNS; run++) {
            ScheduledCluster.Outcome outcome = design.run(SIZE_DEPENDENT, GuardMode.ALWAYS, run);
            if (!outcome.measurement().estimate().enough()) {
                continue;
            }
            estimated++;
            exponents[outcome.windowExponent()]++;
            secondsSum += outcome.seconds();
            truthSum += outcome.trueTimeRatio();
            leftOut += outcome.unitsLeftOut();
            covered += outcome.covers() ? 1 : 0;
            RatioEstimate found = outcome.measurement().estimate().timeRatio().orElseThrow();
            coveredCompared += found.low() <= outcome.comparedTimeRatio() && outcome.comparedTimeRatio() <= found.high() ? 1 : 0;
            double error = Math.log(outcome.measurement().estimate().timeRatio().orElseThrow().ratio() / outcome.trueTimeRatio());
            errorSum += error;
            errorSquares += error * error;
            seSquares += Math.pow(outcome.measurement().estimate().logStandardError(), 2);
            coveredPerUnit += outcome.measurement().estimate().perUnit().map(unit -> unit.low() <= outcome.trueTimeRatio() && outcome.trueTimeRatio() <= unit.high())
                    .orElse(false) ? 1 : 0;
        }
        double coverage = (double) covered / estimated;
        double bias = errorSum / estimated;
        System.out.printf(Locale.ROOT, "MeasurementProofTest %s: log error of the estimate against the truth: mean %.4f, s.d. %.4f; standard error stated %.4f; "
                        + "holds the compared units' truth in %.1f %%%n", design, bias, Math.sqrt(errorSquares / estimated - bias * bias), Math.sqrt(seSquares / estimated), 100.0 * coveredCompared / estimated);
        int stopped = 0;
        for (int run = 0; run < COVERAGE_RUNS; run++) {
            stopped += design.run(ScheduledCluster.noEffect(), GuardMode.AUTO, 50_000 + run).measurement().guard().placing() ? 0 : 1;
        }
        double falseStops = (double) stopped / COVERAGE_RUNS;
        StringBuilder power = new StringBuilder();
        for (double gain : POWER_GAINS) {
            int found = 0;
            double truth = 0;
            for (int run = 0; run < POWER_RUNS; run++) {
                ScheduledCluster.Outcome outcome = design.run(new ScheduledCluster(gain, 0.05), GuardMode.ALWAYS, 90_000 + run);
                truth += outcome.trueTimeRatio();
                found += outcome.measurement().estimate().enough() && outcome.foundFaster() ? 1 : 0;
            }
            double rate = (double) found / POWER_RUNS;
            power.append(String.format(Locale.ROOT, "; true speed-up %.3fx found faster in %.1f %% (s.d. %.1f)", POWER_RUNS / truth, 100 * rate,
                    100 * sd(rate, POWER_RUNS)));
        }
        if (design == Design.SPARK) {
            // Before the window rule: the configured 4 s window throughout.
            int coveredFixed = 0;
            int estimatedFixed = 0;
            for (int run = 0; run < SPAN_RULE_RUNS; run++) {
                ScheduledCluster.Outcome outcome = design.run(SIZE_DEPENDENT.withWindowRule(false, ScheduledCluster.STAGES), GuardMode.ALWAYS, run);
                if (outcome.measurement().estimate().enough()) {
                    estimatedFixed++;
                    coveredFixed += outcome.covers() ? 1 : 0;
                }
            }
            double fixedRate = (double) coveredFixed / estimatedFixed;
            System.out.printf(Locale.ROOT, "MeasurementProofTest SPARK: runs of %.0f s; windows grown by the rule to 2^m x 4 s, runs by m %s; the 4 s window "
                    + "throughout instead: the interval holds the job's truth in %.1f %% (s.d. %.1f) of %d runs%n", secondsSum / estimated,
                    java.util.Arrays.toString(exponents), 100 * fixedRate, 100 * sd(fixedRate, estimatedFixed), estimatedFixed);
            int coveredStarted = 0;
            for (int run = 0; run < SPAN_RULE_RUNS; run++) {
                coveredStarted += design.run(SIZE_DEPENDENT.withLeftOutFed(false).withSpanRule(ScheduledCluster.SpanRule.START_WINDOW), GuardMode.ALWAYS, run).covers() ? 1 : 0;
            }
            double rate = (double) coveredStarted / SPAN_RULE_RUNS;
            System.out.printf(Locale.ROOT, "MeasurementProofTest SPARK, spanning tasks compared in their start window's arm instead: the interval holds the "
                    + "job's truth in %.1f %% (s.d. %.1f) of %d runs%n", 100 * rate, 100 * sd(rate, SPAN_RULE_RUNS), SPAN_RULE_RUNS);
        }
        double unfedCompared = Double.NaN;
        if (design == Design.SPARK) {
            // The estimator on the compared tasks alone (the left-out tasks not handed in, as before the fix): does it
            // hold those tasks' truth? This checks the interval's machinery apart from the left-out work.
            int unfedCovered = 0;
            int unfedCoveredCompared = 0;
            int unfedEstimated = 0;
            for (int run = 0; run < COVERAGE_RUNS; run++) {
                ScheduledCluster.Outcome outcome = design.run(SIZE_DEPENDENT.withLeftOutFed(false), GuardMode.ALWAYS, run);
                if (outcome.measurement().estimate().enough()) {
                    unfedEstimated++;
                    unfedCovered += outcome.covers() ? 1 : 0;
                    RatioEstimate found = outcome.measurement().estimate().timeRatio().orElseThrow();
                    unfedCoveredCompared += found.low() <= outcome.comparedTimeRatio() && outcome.comparedTimeRatio() <= found.high() ? 1 : 0;
                }
            }
            unfedCompared = (double) unfedCoveredCompared / unfedEstimated;
            double rate = (double) unfedCovered / unfedEstimated;
            System.out.printf(Locale.ROOT, "MeasurementProofTest SPARK, compared tasks alone (left-out tasks not handed in): the interval holds the job's truth "
                    + "in %.1f %% (s.d. %.1f), the compared tasks' in %.1f %% (s.d. %.1f)%n", 100 * rate, 100 * sd(rate, unfedEstimated), 100 * unfedCompared,
                    100 * sd(unfedCompared, unfedEstimated));
        }
        System.out.printf(Locale.ROOT, "MeasurementProofTest %s: %d of %d runs estimated, mean true speed-up %.3fx, %.1f units left out a run; "
                        + "interval holds the truth in %.1f %% (s.d. %.1f; the per-unit diagnostic in %.1f %%); no effect: guard stopped %.1f %% (s.d. %.1f)%s%n",
                design, estimated, COVERAGE_RUNS, estimated / truthSum, (double) leftOut / estimated, 100 * coverage, 100 * sd(coverage, estimated),
                100.0 * coveredPerUnit / estimated, 100 * falseStops, 100 * sd(falseStops, COVERAGE_RUNS), power);
        assertThat(estimated).as("runs with an estimate").isGreaterThanOrEqualTo(COVERAGE_RUNS * 99 / 100);
        assertThat(falseStops).as("false stops with no effect").isLessThanOrEqualTo(PlacementGuard.FALSE_STOP_BOUND + 0.015);
        double coverageOfCompared = (double) coveredCompared / estimated;
        assertThat(coverage).as("coverage of the job's true speed-up").isGreaterThanOrEqualTo(0.935);
        assertThat(coverageOfCompared).as("coverage of the compared units' true speed-up").isGreaterThanOrEqualTo(0.935);
        if (design == Design.SPARK) {
            // The estimator on the compared tasks alone holds their truth too.
            assertThat(unfedCompared).as("coverage of the compared tasks' true speed-up, compared tasks alone").isGreaterThanOrEqualTo(0.935);
        }
    }
}
