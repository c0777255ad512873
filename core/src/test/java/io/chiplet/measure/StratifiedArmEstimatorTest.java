package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StratifiedArmEstimatorTest
{
    @Test
    void normalisesByWhatEachTaskReadAndComparesWithinStages()
    {
        // Stage a: 1 s per MB placed, 2 s per MB control, tasks of 1 to 4 MB; stage b: 100x slower per byte, same ratio.
        List<UnitObservation> units = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long megabytes = 1 + i % 4;
            units.add(unit("a", i % 4 == 0 ? Arm.CONTROL : Arm.PLACED, megabytes, i % 4 == 0 ? 2 : 1));
            units.add(unit("b", i % 4 == 1 ? Arm.CONTROL : Arm.PLACED, megabytes, i % 4 == 1 ? 200 : 100));
        }
        ArmEstimate estimate = StratifiedArmEstimator.standard().estimate(units);

        assertThat(estimate.speedUp()).hasValueSatisfying(speedUp -> assertThat(speedUp).isCloseTo(2.0, within(1e-9)));
        assertThat(estimate.placedFaster()).isTrue();
        assertThat(estimate.controlUnits()).isEqualTo(20);
        assertThat(estimate.placedUnits()).isEqualTo(60);
        assertThat(estimate.strataCompared()).isEqualTo(2);
        assertThat(estimate.figures()).extracting(StratumFigure::basis).containsOnly("bytes");
        // A stage weighs by its share of the job's time: b's tasks take 100x a's.
        double timeA = units.stream().filter(unit -> unit.stratum().equals("a")).mapToDouble(UnitObservation::seconds).sum();
        double timeB = units.stream().filter(unit -> unit.stratum().equals("b")).mapToDouble(UnitObservation::seconds).sum();
        assertThat(estimate.figures()).extracting(StratumFigure::weight).containsExactly(timeA / (timeA + timeB), timeB / (timeA + timeB));
    }

    @Test
    void theEstimateIsTheJobsTimeRatioRatiosOfTotalsWeightedByWhereTheTimeGoes()
    {
        // Stage "small": 30 tasks of 1 MB, placed 0.5 s, control 1 s. Stage "big": 10 tasks of 10 MB (5 control), placed
        // 30 s, control 20 s. Per stratum, cost per MB of each arm is its total time over its total work; the job's
        // ratio is the placed-equivalent time of all the work done over its control-equivalent time.
        List<UnitObservation> units = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            units.add(unit("small", i % 3 == 0 ? Arm.CONTROL : Arm.PLACED, 1, i % 3 == 0 ? 1 : 0.5));
        }
        for (int i = 0; i < 10; i++) {
            units.add(unit("big", i % 2 == 0 ? Arm.CONTROL : Arm.PLACED, 10, i % 2 == 0 ? 2 : 3));
        }
        ArmEstimate estimate = new StratifiedArmEstimator(0.95, 5).estimate(units);

        double placed = 30 * 0.5 + 10 * 30;
        double control = 30 * 1 + 10 * 20;
        assertThat(estimate.timeRatio().orElseThrow().ratio()).isCloseTo(placed / control, within(1e-12));
        // The job ran slower placed, though three tasks in four ran faster: the per-task diagnostic says the opposite.
        assertThat(estimate.speedUp().orElseThrow()).isLessThan(1);
        assertThat(estimate.perUnit().orElseThrow().ratio()).isLessThan(1);
        assertThat(estimate.perUnitDisagrees()).isTrue();
    }

    @Test
    void strataWithoutTwoOfEachArmAreLeftOutAndCounted()
    {
        List<UnitObservation> units = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            units.add(unit("big", i % 2 == 0 ? Arm.CONTROL : Arm.PLACED, 1, 1 + (i % 3) * 0.01));
        }
        units.add(unit("tiny", Arm.CONTROL, 1, 1));
        units.add(unit("tiny", Arm.PLACED, 1, 1));
        units.add(unit("tiny", Arm.PLACED, 1, 1));
        ArmEstimate estimate = new StratifiedArmEstimator(0.95, 10).estimate(units);

        assertThat(estimate.unitsLeftOut()).isEqualTo(3);
        assertThat(estimate.strata()).isEqualTo(2);
        assertThat(estimate.strataCompared()).isEqualTo(1);
        assertThat(estimate.enough()).isTrue();
    }

    @Test
    void notEnoughEvidenceBelowTheMinimum()
    {
        List<UnitObservation> units = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            units.add(unit("s", i < 5 ? Arm.CONTROL : Arm.PLACED, 1, 1));
        }
        ArmEstimate estimate = StratifiedArmEstimator.standard().estimate(units);

        assertThat(estimate.enough()).isFalse();
        assertThat(estimate.speedUp()).isEmpty();
        assertThat(estimate.controlUnits()).isEqualTo(5);
        assertThat(estimate.decisive(0.02)).isFalse();
        assertThat(estimate.placedSlower()).isFalse();
    }

    @Test
    void recordsOrTheUnitItselfWhenNothingWasRead()
    {
        List<UnitObservation> units = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            Arm arm = i % 2 == 0 ? Arm.CONTROL : Arm.PLACED;
            units.add(new UnitObservation("records", arm, (1 + i % 3) * (arm == Arm.PLACED ? 0.5 : 1.0), 0, 0, 0, 1 + i % 3));
            units.add(new UnitObservation("nothing", arm, arm == Arm.PLACED ? 0.5 : 1.0, 0, 0, 0, 0));
        }
        ArmEstimate estimate = StratifiedArmEstimator.standard().estimate(units);

        assertThat(estimate.figures()).extracting(StratumFigure::basis).containsExactly("records", "unit");
        assertThat(estimate.speedUp()).hasValueSatisfying(speedUp -> assertThat(speedUp).isCloseTo(2.0, within(1e-9)));
    }

    @Test
    void theSameObservationsGiveTheSameIntervalAndOneHoldsNoEffect()
    {
        List<UnitObservation> units = simulated();
        ArmEstimate estimate = StratifiedArmEstimator.standard().estimate(units);
        assertThat(estimate).isEqualTo(StratifiedArmEstimator.standard().estimate(units));
        assertThat(estimate.timeRatio().orElseThrow().noiseExplains()).isTrue();
        // 60 control units of scatter 0.3: the log ratio's standard error is about 0.3 * sqrt(1/60 + 1/240).
        assertThat(estimate.logStandardError()).isCloseTo(0.3 * Math.sqrt(1 / 60.0 + 1 / 240.0), within(0.01));
    }

    private static List<UnitObservation> simulated()
    {
        List<UnitObservation> units = new ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(2);
        for (int i = 0; i < 300; i++) {
            units.add(new UnitObservation("s" + i % 3, i % 5 == 0 ? Arm.CONTROL : Arm.PLACED, Math.exp(random.nextGaussian() * 0.3), 0, 0, 1000, 10));
        }
        return units;
    }

    @Test
    void leftOutWorkCountsInItsSizeClass()
    {
        // One stage: 40 compared tasks of 1 MB (placed 0.5 s per MB, control 1 s) and 10 of 16 MB (placed 2 s per MB,
        // control 1 s); 40 more tasks of 16 MB spanned a switch and were left out, 48 s each. Each size class counts by
        // all the work done in it: the left-out tasks' time at the class's pooled cost (1.5 s per MB), 40 x 32 MB
        // equivalent, as they were slower than the compared tasks (that is why they spanned).
        List<UnitObservation> units = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            units.add(unit("s", i % 2 == 0 ? Arm.CONTROL : Arm.PLACED, 1, i % 2 == 0 ? 1 : 0.5));
        }
        for (int i = 0; i < 10; i++) {
            units.add(unit("s", i % 2 == 0 ? Arm.CONTROL : Arm.PLACED, 16, i % 2 == 0 ? 1 : 2));
        }
        List<LeftOutUnit> leftOut = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            leftOut.add(new LeftOutUnit("s", 48, 16L << 20, 16_000));
        }
        StratifiedArmEstimator estimator = new StratifiedArmEstimator(0.95, 5);

        double compared = (40 * 0.5 + 160 * 2.0) / (40 * 1 + 160 * 1);
        assertThat(estimator.estimate(units).timeRatio().orElseThrow().ratio()).isCloseTo(compared, within(1e-12));
        double all = (40 * 0.5 + (160 + 40 * 32) * 2.0) / (40 * 1 + (160 + 40 * 32) * 1);
        ArmEstimate estimate = estimator.estimate(units, leftOut);
        assertThat(estimate.timeRatio().orElseThrow().ratio()).isCloseTo(all, within(1e-12));
        // Still one stage's figure, with its compared tasks, weighing the whole job (one stage).
        assertThat(estimate.figures()).singleElement().satisfies(figure -> {
            assertThat(figure.placed() + figure.control()).isEqualTo(50);
            assertThat(figure.timeRatio()).isCloseTo(all, within(1e-12));
            assertThat(figure.weight()).isCloseTo(1, within(1e-12));
        });
        // Left-out work of a stage that was not compared changes nothing.
        assertThat(estimator.estimate(units, List.of(new LeftOutUnit("other", 5, 1, 1))).timeRatio().orElseThrow().ratio()).isCloseTo(compared, within(1e-12));
    }

    private static UnitObservation unit(String stage, Arm arm, long megabytes, double secondsPerMegabyte)
    {
        return new UnitObservation(stage, arm, megabytes * secondsPerMegabyte, 0, 0, megabytes << 20, megabytes * 1000);
    }
    /** Executors (clusters) differing by a lognormal factor of sigma 0.2, placement without effect; 3 stages of 40 tasks per executor. */
    private static List<UnitObservation> executorRun(java.util.SplittableRandom random, int placedExecutors, int controlExecutors, boolean withClusters)
    {
        List<UnitObservation> units = new ArrayList<>();
        for (int executor = 0; executor < placedExecutors + controlExecutors; executor++) {
            Arm arm = executor < placedExecutors ? Arm.PLACED : Arm.CONTROL;
            double executorFactor = Math.exp(0.2 * random.nextGaussian());
            for (int stage = 0; stage < 3; stage++) {
                for (int task = 0; task < 40; task++) {
                    double seconds = (1 + stage) * executorFactor * Math.exp(0.1 * random.nextGaussian());
                    units.add(new UnitObservation("stage " + stage, arm, seconds, 0, 0, 0, 0, withClusters ? "executor " + executor : ""));
                }
            }
        }
        return units;
    }

    @Test
    void armsDrawnPerExecutorGetAnIntervalOverExecutorsThatHoldsItsRate()
    {
        StratifiedArmEstimator estimator = StratifiedArmEstimator.standard();
        java.util.SplittableRandom random = new java.util.SplittableRandom(23);
        int runs = 400;
        int clusteredHolds = 0;
        int naiveHolds = 0;
        for (int run = 0; run < runs; run++) {
            long seed = random.nextLong();
            RatioEstimate clustered = estimator.estimate(executorRun(new java.util.SplittableRandom(seed), 3, 3, true)).timeRatio().orElseThrow();
            RatioEstimate naive = estimator.estimate(executorRun(new java.util.SplittableRandom(seed), 3, 3, false)).timeRatio().orElseThrow();
            clusteredHolds += clustered.noiseExplains() ? 1 : 0;
            naiveHolds += naive.noiseExplains() ? 1 : 0;
            // The same point figure: only the interval knows the executors.
            assertThat(clustered.ratio()).isCloseTo(naive.ratio(), within(1e-12));
        }
        System.out.printf(java.util.Locale.ROOT, "3 + 3 executors, no effect, %d runs: over executors the interval held 1 in %.1f%%, over tasks in %.1f%%%n", runs,
                100.0 * clusteredHolds / runs, 100.0 * naiveHolds / runs);
        // Tasks taken as independent: the executors' own differences read as placement's effect in most runs.
        assertThat(naiveHolds).isLessThan(runs / 2);
        // Over executors: at least its stated 95 % (binomial s.d. about 1.1 points at 400 runs).
        assertThat(clusteredHolds).isGreaterThanOrEqualTo((int) (0.93 * runs));
    }

    @Test
    void oneExecutorInAnArmIsNotEnoughEvidence()
    {
        ArmEstimate estimate = StratifiedArmEstimator.standard().estimate(executorRun(new java.util.SplittableRandom(5), 3, 1, true));
        assertThat(estimate.enough()).isFalse();
        // A stage needs two clusters of each arm to be compared: with one control executor every stage is left out.
        assertThat(estimate.controlUnits()).isZero();
        assertThat(estimate.unitsLeftOut()).isEqualTo(4 * 120);
        assertThat(StratifiedArmEstimator.standard().estimate(executorRun(new java.util.SplittableRandom(5), 3, 2, true)).enough()).isTrue();
    }
}
