package io.chiplet.jmh.report;

import java.util.Locale;

/** How the report prints numbers: scores, durations, sizes. */
final class Units
{
    private Units() {}

    static String number(double value)
    {
        if (!Double.isFinite(value)) {
            return String.valueOf(value);
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 100_000) {
            return String.format(Locale.ROOT, "%.3g", value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    /** A duration given in nanoseconds, in the unit that keeps it short: {@code 24.0 ns}, {@code 1.5 µs}, {@code 18.9 ms}. */
    static String nanos(double nanos)
    {
        if (nanos >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1_000_000);
        }
        if (nanos >= 1_000) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1_000);
        }
        return String.format(Locale.ROOT, "%.1f ns", nanos);
    }

    static String bytes(long bytes)
    {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.0f MiB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
    }
}
