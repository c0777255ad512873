package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * A unit's arm with the control share it was drawn at. Units drawn at different shares are compared only with units
 * of their own share: the share changes over a run (wide, then residual), and work that speeds up over the run (a JVM
 * warming up) would otherwise make the control arm, over-represented early, look slow.
 */
public record DrawnArm(Arm arm, double controlShare)
{
    public DrawnArm
    {
        requireNonNull(arm, "arm is null");
        ArmAssignment.blockSize(controlShare);
    }

    /** The stratum to compare the unit in: its own ({@code stage 3}) at its share ({@code stage 3, 1 in 10}). */
    public String stratum(String stratum)
    {
        int block = ArmAssignment.blockSize(controlShare);
        return block == 0 ? stratum + ", unplaced" : stratum + ", 1 in " + block;
    }
}
