package io.chiplet.measure;

/**
 * How much work runs as control: the evidence is bought with the control units' missed placement, so the share is
 * {@code wide} while the interval is wide (or there is none yet), {@code residual} once it is decisive (enough to
 * notice when the workload or the machine changes, as the estimate keeps being updated), and none when measuring
 * is off. Pure.
 *
 * @param wide the share while the question is open
 * @param residual the share once the interval settles it
 * @param precision an interval within {@code [1/(1+precision), 1+precision]} settles it even when it holds 1
 */
public record ControlFraction(double wide, double residual, double precision)
{
    public ControlFraction
    {
        ArmAssignment.blockSize(wide);
        ArmAssignment.blockSize(residual);
        if (residual > wide) {
            throw new IllegalArgumentException("expected a residual control share (" + residual + ") no larger than the share while measuring (" + wide + ")");
        }
        if (!(precision > 0)) {
            throw new IllegalArgumentException("expected a positive precision, got " + precision);
        }
    }

    /** {@code wide}, with a quarter of it once decisive, decisive meaning the interval excludes 1 or lies within 2 % of it. */
    public static ControlFraction of(double wide)
    {
        return new ControlFraction(wide, wide / 4, 0.02);
    }

    /**
     * @param guarding whether a guard waits for evidence of harm: while the interval says placed work is slower, the
     *         share stays wide so that the guard's next look (when the control units have doubled) comes soon
     */
    public double share(ArmEstimate estimate, boolean guarding)
    {
        if (guarding && estimate.placedSlower()) {
            return wide;
        }
        return estimate.decisive(precision) ? residual : wide;
    }
}
