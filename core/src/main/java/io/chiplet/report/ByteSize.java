package io.chiplet.report;

import java.util.Locale;

/** Byte counts as people read them on a page or a terminal, one rule for the CLI's text, the pictures and the reports. */
public final class ByteSize
{
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private ByteSize() {}

    /**
     * Bytes in the largest whole binary unit, one decimal at most ({@code 32 MiB}, {@code 1.5 GiB}); a size just under a
     * whole unit (a node's usable memory) reads as that unit.
     */
    public static String rounded(long bytes)
    {
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        String number = String.format(Locale.ROOT, "%.1f", value);
        return (number.endsWith(".0") ? number.substring(0, number.length() - 2) : number) + " " + UNITS[unit];
    }
}
