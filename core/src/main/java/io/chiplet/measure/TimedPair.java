package io.chiplet.measure;

/**
 * One thing timed both ways back to back (one query, one round): with the plugin and without it. Pairing is what
 * makes a noisy machine usable: a minute of slowness weighs on both sides of a pair alike and cancels in the ratio.
 *
 * @param with seconds (or any unit, the same for both) with the plugin
 * @param without the same without it
 */
public record TimedPair(double with, double without)
{
    public TimedPair
    {
        if (!(with > 0) || Double.isInfinite(with) || !(without > 0) || Double.isInfinite(without)) {
            throw new IllegalArgumentException("expected two positive finite times, got with " + with + " and without " + without);
        }
    }

    /** The logarithm of with over without: logarithms average into a geometric mean, and 0 means "no difference". */
    public double logRatio()
    {
        return Math.log(with / without);
    }
}
