package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * How an engine measures placement in place: whether at all, the control share, the guard and the seed.
 *
 * @param enabled false: no control units, no estimate; placement as configured
 * @param seed the seed of the arms' draw ({@link ArmAssignment})
 */
public record MeasurementPlan(boolean enabled, ControlFraction controlShare, GuardMode guard, long seed, int minUnitsPerArm)
{
    /** The default share of control work while the estimate is open: a tenth of the units. */
    public static final double DEFAULT_CONTROL_SHARE = 0.10;

    public MeasurementPlan
    {
        requireNonNull(controlShare, "controlShare is null");
        requireNonNull(guard, "guard is null");
        if (minUnitsPerArm < 2) {
            throw new IllegalArgumentException("expected at least 2 units per arm before estimating, got " + minUnitsPerArm);
        }
    }

    public static MeasurementPlan defaults(long seed)
    {
        return new MeasurementPlan(true, ControlFraction.of(DEFAULT_CONTROL_SHARE), GuardMode.AUTO, seed, StratifiedArmEstimator.DEFAULT_MIN_UNITS_PER_ARM);
    }

    public ArmAssignment assignment()
    {
        return new ArmAssignment(seed);
    }

    public StratifiedArmEstimator estimator()
    {
        return new StratifiedArmEstimator(PairedBootstrap.DEFAULT_CONFIDENCE, minUnitsPerArm);
    }
}
