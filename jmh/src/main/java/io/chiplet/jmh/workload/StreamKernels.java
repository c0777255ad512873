package io.chiplet.jmh.workload;

/**
 * McCalpin's STREAM copy and triad over one worker's slice of the arrays. Plain loops over {@code double[]}: C2
 * vectorises them, as a C compiler does STREAM's.
 */
public final class StreamKernels
{
    private StreamKernels() {}

    /** {@code c[i] = a[i]}; returns the bytes moved (read and written). */
    public static long copy(double[] a, double[] c)
    {
        checkSameLength(a.length, c.length);
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i];
        }
        return 16L * a.length;
    }

    /** {@code a[i] = b[i] + scalar * c[i]}; returns the bytes moved (read and written). */
    public static long triad(double[] a, double[] b, double[] c, double scalar)
    {
        checkSameLength(a.length, b.length);
        checkSameLength(a.length, c.length);
        for (int i = 0; i < a.length; i++) {
            a[i] = b[i] + scalar * c[i];
        }
        return 24L * a.length;
    }

    private static void checkSameLength(int expected, int actual)
    {
        if (expected != actual) {
            throw new IllegalArgumentException("arrays differ in length: " + expected + " and " + actual);
        }
    }
}
