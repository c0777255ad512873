package io.chiplet.measure;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Stops placement once it measurably slows the job down, in {@link GuardMode#AUTO}; never in {@link GuardMode#ALWAYS}.
 *
 * <p>A guard that looked at a 95 % interval after every task would stop on noise far more often than 2.5 % of the
 * time: each look is another chance. So it looks only when both arms' clusters in compared strata (windows,
 * executors, or units drawn on their own: what carries information, not the units inside a cluster) have doubled
 * since its last look: at {@code m}, {@code 2m}, {@code 4m}, ... for {@code m} = the plan's units per arm (20). Look
 * {@code k} stops only when the job's log time ratio exceeds the {@code 1 - a_k} quantile of Student's t (the
 * estimate's degrees of freedom) in standard errors, with {@code a_k = 0.025 * 2 / ((k + 2)(k + 3))}: a third of the
 * budget at the first look, a sixth at the second, a tenth at the third, ... The {@code a_k} add up to
 * {@value #FALSE_STOP_BOUND} over any number of looks, so where each look's test holds its level a run in which
 * placement makes no difference is stopped with a probability of at most 2.5 % however long it runs (a union bound).
 * The first look, on the fewest clusters, is where heavy tails make the t's tail least accurate: the earlier spending
 * ({@code 6 / (pi^2 (k + 1)^2)}, 61 % of the budget at the first look) let that look alone spend about twice its share.
 * {@code MeasurementSimulationTest} and {@code JobSpeedUpSimulationTest} measure the rate under heavy tails,
 * size-dependent effects, shared load and many query shapes. Immutable: each look returns the next guard.
 *
 * @param looks how many looks were taken
 * @param stop why placement stopped, empty while placing
 */
public record PlacementGuard(GuardMode mode, int looks, Optional<GuardStop> stop)
{
    /** The probability, bounded over all looks, of stopping a run in which placement makes no difference. */
    public static final double FALSE_STOP_BOUND = 0.025;

    public PlacementGuard
    {
        requireNonNull(mode, "mode is null");
        requireNonNull(stop, "stop is null");
        if (looks < 0) {
            throw new IllegalArgumentException("looks must not be negative: " + looks);
        }
    }

    public static PlacementGuard start(GuardMode mode)
    {
        return new PlacementGuard(mode, 0, Optional.empty());
    }

    public boolean placing()
    {
        return stop.isEmpty();
    }

    /**
     * Whether the next look is due: both arms' clusters in compared strata (the units that carry information: windows,
     * executors, or tasks drawn on their own) reached {@code minUnitsPerArm * 2^looks}.
     */
    public boolean due(ArmEstimate estimate)
    {
        return mode == GuardMode.AUTO && placing() && estimate.enough()
                && Math.min(estimate.placedClusters(), estimate.controlClusters()) >= (long) estimate.minUnitsPerArm() << Math.min(looks, 40);
    }

    /** Takes the look if one is due: the next guard, stopped if the estimate is beyond this look's threshold. */
    public PlacementGuard look(ArmEstimate estimate)
    {
        requireNonNull(estimate, "estimate is null");
        if (!due(estimate)) {
            return this;
        }
        double threshold = threshold(looks, estimate.degreesOfFreedom());
        double logRatio = Math.log(estimate.timeRatio().orElseThrow().ratio());
        boolean slower = estimate.logStandardError() > 0 ? logRatio > threshold * estimate.logStandardError() : logRatio > 0;
        return new PlacementGuard(mode, looks + 1, slower ? Optional.of(new GuardStop(estimate, looks, threshold)) : Optional.empty());
    }

    /** The share of the false-stop bound look {@code k} may spend: {@code 0.025 * 2 / ((k + 2)(k + 3))}. */
    public static double spent(int look)
    {
        if (look < 0) {
            throw new IllegalArgumentException("looks count from 0, got " + look);
        }
        return FALSE_STOP_BOUND * 2 / ((look + 2.0) * (look + 3.0));
    }

    /** The t-score look {@code k} asks for, with the estimate's degrees of freedom. */
    public static double threshold(int look, double degreesOfFreedom)
    {
        double alpha = spent(look);
        return NormalQuantile.student(1 - alpha, Math.max(1, degreesOfFreedom));
    }
}
