package io.chiplet.measure;

import static java.util.Objects.requireNonNull;

/**
 * One stratum's part of an {@link ArmEstimate}: its own time ratio (placed over control, per unit of what its units
 * read) with a 95 % interval from its own spread alone (Student's t with its smaller arm's degrees), for the chart and
 * the table.
 *
 * @param basis what its units' times were divided by: {@code bytes}, {@code records} or {@code unit} (nothing read)
 * @param weight its share of the units compared: how much it counts in the overall figure
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
}
