package io.chiplet.measure;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the in-place comparison says so far: the time ratio of placed over control work with its interval, once there
 * is enough evidence, and what it rests on. The speed-up of placement is the inverse ratio: above 1 placement made
 * work faster.
 *
 * @param timeRatio placed over control (below 1 placement was faster), with its bootstrap interval; judged by
 *         {@link RatioEstimate#noiseExplains()} as {@code chiplet bench} is; empty until there is enough evidence
 * @param logStandardError the standard error of the log time ratio; 0 while there is no estimate
 * @param degreesOfFreedom Satterthwaite's degrees of freedom of that standard error; 0 while there is no estimate
 * @param placedUnits placed units in the strata compared
 * @param controlUnits control units in the strata compared
 * @param strata strata seen
 * @param unitsLeftOut units of strata with fewer than two units in either arm: nothing to compare them with
 * @param minUnitsPerArm the evidence asked for before an estimate is given
 * @param figures each compared stratum's own figure
 */
public record ArmEstimate(Optional<RatioEstimate> timeRatio, double logStandardError, double degreesOfFreedom, int placedUnits, int controlUnits, int strata, int unitsLeftOut,
        int minUnitsPerArm, List<StratumFigure> figures)
{
    public ArmEstimate
    {
        requireNonNull(timeRatio, "timeRatio is null");
        figures = List.copyOf(figures);
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
