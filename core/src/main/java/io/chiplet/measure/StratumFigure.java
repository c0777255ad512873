package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * One stratum's part of an {@link ArmEstimate}: its own time ratio (placed over control: each arm's summed time over
 * its summed work) with a 95 % interval from its own clusters alone (as {@link StratifiedArmEstimator} computes the
 * job's), for the chart and the table.
 *
 * @param basis what its units' times were divided by: {@code bytes}, {@code records} or {@code unit} (nothing read)
 * @param weight its share of the job's time (both arms and its left-out units, strata compared): how much it counts in the job's figure
 */
public record StratumFigure(String stratum, int placed, int control, String basis, double timeRatio, double low, double high, double weight)
{
    public StratumFigure
    {
        requireNonNull(stratum, "stratum is null");
        requireNonNull(basis, "basis is null");
    }

    public double speedUp()
    {
        return 1 / timeRatio;
    }

    /** The speed-up interval's lower end (the time ratio's upper end, inverted). */
    public double speedUpLow()
    {
        return 1 / high;
    }

    /** The speed-up interval's upper end. */
    public double speedUpHigh()
    {
        return 1 / low;
    }

    /** Whether both arms have {@code minUnitsPerArm} units: the rule the overall estimate applies to each arm. */
    public boolean enough(int minUnitsPerArm)
    {
        return placed >= minUnitsPerArm && control >= minUnitsPerArm;
    }

    /** In words, as the report says it for the overall figure ({@link Verdict}). */
    public String verdict(int minUnitsPerArm)
    {
        // As the overall estimate: faster when the time ratio's interval lies wholly below 1, slower wholly above.
        return Verdict.of(enough(minUnitsPerArm), high < 1, low > 1).words();
    }
}
