package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * What the engine's placing side does now: whether it places at all, and the share of units it leaves as control.
 *
 * @param controlShare the control share while placing (0 when measuring is off)
 * @param placing false once the guard stopped placement: every unit then runs as without the plugin
 */
public record Directive(double controlShare, boolean placing)
{
    public Directive
    {
        ArmAssignment.blockSize(controlShare);
    }

    /** The arm of a unit under this directive: the seeded draw while placing, control once placement stopped. */
    public Arm arm(ArmAssignment assignment, long stratum, long unit)
    {
        return draw(assignment, stratum, unit).arm();
    }

    /** The arm with the share it was drawn at, for {@link DrawnArm#stratum}. */
    public DrawnArm draw(ArmAssignment assignment, long stratum, long unit)
    {
        requireNonNull(assignment, "assignment is null");
        return placing ? new DrawnArm(assignment.of(stratum, unit, controlShare), controlShare) : new DrawnArm(Arm.CONTROL, 0);
    }
}
