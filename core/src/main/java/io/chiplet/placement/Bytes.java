package io.chiplet.placement;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/** Byte counts as people write them: {@code 1048576}, {@code 64MiB}, {@code 1GiB}, {@code 512k}, {@code 2GB}. */
public final class Bytes
{
    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Bytes() {}

    /**
     * Binary suffixes ({@code KiB}, {@code MiB}, ... and the JVM's {@code k}, {@code m}, {@code g}, {@code t}) count in
     * powers of 1024; {@code KB}, {@code MB}, {@code GB}, {@code TB} in powers of 1000.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static long parse(String text)
    {
        requireNonNull(text, "text is null");
        String s = text.strip();
        int digits = 0;
        while (digits < s.length() && Character.isDigit(s.charAt(digits))) {
            digits++;
        }
        String unit = s.substring(digits).strip().toLowerCase(Locale.ROOT);
        long multiplier = switch (unit) {
            case "", "b" -> 1L;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            case "t", "tib" -> 1L << 40;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            case "tb" -> 1_000_000_000_000L;
            default -> -1L;
        };
        if (digits == 0 || digits > 18 || multiplier < 0) {
            throw new IllegalArgumentException("expected a byte count like 1073741824, 64MiB, 1GiB or 2GB but found \"" + text + "\"");
        }
        long value = Long.parseLong(s.substring(0, digits));
        try {
            return Math.multiplyExact(value, multiplier);
        }
        catch (ArithmeticException e) {
            throw new IllegalArgumentException("byte count \"" + text + "\" is too large", e);
        }
    }

    /** The largest binary unit that keeps the number whole when it divides evenly, else one decimal: {@code 32 MiB}, {@code 1.5 GiB}. */
    public static String format(long bytes)
    {
        int unit = 0;
        long whole = bytes;
        while (unit < BINARY.length - 1 && whole >= 1024 && whole % 1024 == 0) {
            whole /= 1024;
            unit++;
        }
        if (whole < 1024 || unit == BINARY.length - 1) {
            return whole + " " + BINARY[unit];
        }
        int scaled = (63 - Long.numberOfLeadingZeros(bytes)) / 10;
        scaled = Math.min(scaled, BINARY.length - 1);
        return String.format(Locale.ROOT, "%.1f %s", bytes / Math.pow(1024, scaled), BINARY[scaled]);
    }
}
