package io.chiplet.measure;

import java.util.Arrays;

/** The median of measurements: robust to the one slow run a busy machine gives, where a mean is not. */
public final class Median
{
    private Median() {}

    /**
     * The middle value, or the mean of the two middle values of an even count.
     *
     * @throws IllegalArgumentException for no values
     */
    public static double of(double... values)
    {
        if (values.length == 0) {
            throw new IllegalArgumentException("the median of no values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
