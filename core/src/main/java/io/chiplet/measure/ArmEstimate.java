package io.chiplet.measure;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the in-place comparison says so far: the job's time ratio of placed over control work with its interval, once
 * there is enough evidence, and what it rests on. The speed-up of placement is the inverse ratio: above 1 placement
 * made the job faster. {@link StratifiedArmEstimator} says what exactly is estimated (the job's time, strata weighted
 * by where the time goes).
 *
 * @param timeRatio placed over control (below 1 placement was faster), with its interval; judged by
 *         {@link RatioEstimate#noiseExplains()} as {@code chiplet bench} is; empty until there is enough evidence
 * @param logStandardError the standard error of the log time ratio; 0 while there is no estimate
 * @param degreesOfFreedom the degrees of freedom of that standard error (from the clusters); 0 while there is no
 *         estimate
 * @param placedUnits placed units in the strata compared
 * @param controlUnits control units in the strata compared
 * @param placedClusters placed clusters (windows, executors; a unit without a cluster is its own) in the strata
 *         compared: what the interval and the guard's looks rest on
 * @param controlClusters the same for control
 * @param strata strata seen
 * @param unitsLeftOut units of strata with fewer than two clusters in either arm: nothing to compare them with
 * @param minUnitsPerArm the evidence asked for before an estimate is given
 * @param figures each compared stratum's own figure
 * @param perUnit a diagnostic, not the estimate: the stratified geometric mean of per-unit cost ratios, every unit
 *         alike (what earlier versions showed), with its own cluster-robust interval; present with the estimate
 */
public record ArmEstimate(Optional<RatioEstimate> timeRatio, double logStandardError, double degreesOfFreedom, int placedUnits, int controlUnits,
        int placedClusters, int controlClusters, int strata, int unitsLeftOut, int minUnitsPerArm, List<StratumFigure> figures, Optional<RatioEstimate> perUnit)
{
    /** The power {@link #minimumDetectableEffect()} is stated at. */
    public static final double DETECTION_POWER = 0.8;

    public ArmEstimate
    {
        requireNonNull(timeRatio, "timeRatio is null");
        requireNonNull(perUnit, "perUnit is null");
        figures = List.copyOf(figures);
    }

    /** Without clusters or the diagnostic: every unit its own cluster (on/off rounds). */
    public ArmEstimate(Optional<RatioEstimate> timeRatio, double logStandardError, double degreesOfFreedom, int placedUnits, int controlUnits, int strata,
            int unitsLeftOut, int minUnitsPerArm, List<StratumFigure> figures)
    {
        this(timeRatio, logStandardError, degreesOfFreedom, placedUnits, controlUnits, placedUnits, controlUnits, strata, unitsLeftOut, minUnitsPerArm, figures,
                Optional.empty());
    }

    /**
     * The smallest effect the data at hand could have detected: the time ratio's distance from 1, as a fraction
     * (0.06: 6 %), that a two-sided test at the interval's level finds with 80 % power, {@code (t_{1-a/2,df} +
     * t_{0.8,df}) SE} on the log scale. Empty while there is no estimate (or its standard error is 0).
     */
    public Optional<Double> minimumDetectableEffect()
    {
        if (timeRatio.isEmpty() || !(logStandardError > 0)) {
            return Optional.empty();
        }
        double freedom = Math.max(1, degreesOfFreedom);
        double level = 1 - (1 - timeRatio.get().confidence()) / 2;
        return Optional.of(Math.expm1((NormalQuantile.student(level, freedom) + NormalQuantile.student(DETECTION_POWER, freedom)) * logStandardError));
    }

    /**
     * Whether the per-unit diagnostic tells another story than the estimate: their intervals do not overlap, or one
     * says placed faster where the other says placed slower. Then the effect differs with the units' size (or
     * stragglers sit in one arm), and the job's figure, not the per-unit one, says what the job gained.
     */
    public boolean perUnitDisagrees()
    {
        if (timeRatio.isEmpty() || perUnit.isEmpty()) {
            return false;
        }
        RatioEstimate job = timeRatio.get();
        RatioEstimate unit = perUnit.get();
        boolean apart = job.high() < unit.low() || unit.high() < job.low();
        boolean opposite = (job.high() < 1 && unit.low() > 1) || (job.low() > 1 && unit.high() < 1);
        return apart || opposite;
    }

    /** Whether there is enough evidence for an estimate. */
    public boolean enough()
    {
        return timeRatio.isPresent();
    }

    /** Strata compared. */
    public int strataCompared()
    {
        return figures.size();
    }

    /** Control over placed time: above 1 placement was faster. */
    public Optional<Double> speedUp()
    {
        return timeRatio.map(ratio -> 1 / ratio.ratio());
    }

    /** The speed-up interval's lower end. */
    public Optional<Double> speedUpLow()
    {
        return timeRatio.map(ratio -> 1 / ratio.high());
    }

    /** The speed-up interval's upper end. */
    public Optional<Double> speedUpHigh()
    {
        return timeRatio.map(ratio -> 1 / ratio.low());
    }

    /** Whether the interval lies wholly on the slow side: placed work was slower, beyond noise. */
    public boolean placedSlower()
    {
        return timeRatio.map(ratio -> ratio.low() > 1).orElse(false);
    }

    /** Whether the interval lies wholly on the fast side. */
    public boolean placedFaster()
    {
        return timeRatio.map(ratio -> ratio.high() < 1).orElse(false);
    }

    /**
     * Whether the evidence has settled the question: the interval excludes 1, or is so narrow that any effect it
     * allows is within {@code precision} (0.02: within 2 %).
     */
    public boolean decisive(double precision)
    {
        return timeRatio.map(ratio -> !ratio.noiseExplains() || ratio.within(1 / (1 + precision), 1 + precision)).orElse(false);
    }
}
