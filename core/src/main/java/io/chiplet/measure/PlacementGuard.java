package io.chiplet.measure;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Stops placement once it measurably slows work down, in {@link GuardMode#AUTO}; never in {@link GuardMode#ALWAYS}.
 *
 * <p>A guard that looked at a 95 % interval after every task would stop on noise far more often than 2.5 % of the
 * time: each look is another chance. So it looks only when the control units have doubled since its last look (at
 * {@code m}, {@code 2m}, {@code 4m}, ... for {@code m} units per arm), and look {@code k} stops only when the log
 * time ratio exceeds {@code z(1 - a_k)} of its standard errors, with {@code a_k = 0.025 * 6 / (pi^2 (k + 1)^2)} (a quantile of Student's t with the estimate's degrees of freedom).
 * The {@code a_k} add up to {@value #FALSE_STOP_BOUND} over any number of looks, so, where the estimate's errors are
 * as its standard error says, a run in which placement makes no difference is stopped with a probability of at most
 * 2.5 % however long it runs (a union bound; the simulation in {@code MeasurementSimulationTest} measures far less,
 * since the looks overlap). Immutable: each look returns the next guard.
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

    /** The t-score look {@code k} asks for, with the estimate's degrees of freedom. */
    public static double threshold(int look, double degreesOfFreedom)
    {
        double alpha = FALSE_STOP_BOUND * 6 / (Math.PI * Math.PI * (look + 1.0) * (look + 1.0));
        return NormalQuantile.student(1 - alpha, Math.max(1, degreesOfFreedom));
    }
}
