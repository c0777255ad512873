package io.chiplet.settings;

import io.chiplet.placement.Policy;
import io.chiplet.topology.ChipletMemory;
import io.chiplet.topology.MemoryKind;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value parsers both plugins' settings share. Each throws {@link UnusableValueException} saying what it expected.
 */
public final class SettingValues
{
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m)?");

    private SettingValues() {}

    /** A whole number from {@code minimum} up to {@link Long#MAX_VALUE}. */
    public static long parseLong(String value, long minimum)
    {
        long parsed = parseLong(value);
        if (parsed < minimum) {
            throw new UnusableValueException("a whole number, at least " + minimum);
        }
        return parsed;
    }

    /** Any whole number that fits a {@code long}. */
    public static long parseLong(String value)
    {
        try {
            return Long.parseLong(value);
        }
        catch (NumberFormatException e) {
            throw new UnusableValueException("a whole number");
        }
    }

    /** A finite number from {@code minimum} to {@code maximum}, both included. */
    public static double parseDouble(String value, double minimum, double maximum)
    {
        double parsed = parseFinite(value);
        if (parsed < minimum || parsed > maximum) {
            throw new UnusableValueException("a number from " + minimum + " to " + maximum);
        }
        return parsed;
    }

    /** A finite number above {@code exclusiveMinimum}. */
    public static double parseDoubleAbove(String value, double exclusiveMinimum)
    {
        double parsed = parseFinite(value);
        if (!(parsed > exclusiveMinimum)) {
            throw new UnusableValueException("a number above " + exclusiveMinimum);
        }
        return parsed;
    }

    private static double parseFinite(String value)
    {
        try {
            double parsed = Double.parseDouble(value);
            if (Double.isNaN(parsed) || Double.isInfinite(parsed)) {
                throw new UnusableValueException("a finite number");
            }
            return parsed;
        }
        catch (NumberFormatException e) {
            throw new UnusableValueException("a number");
        }
    }

    /**
     * {@code 500ms}, {@code 2s}, {@code 1m} (airlift's duration units that matter here), or a bare number of
     * milliseconds; at least {@code minimum}.
     */
    public static Duration parseDuration(String value, Duration minimum)
    {
        Matcher matcher = DURATION.matcher(value.toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new UnusableValueException("a duration such as 500ms, 2s or 1m");
        }
        long amount = Long.parseLong(matcher.group(1));
        Duration duration = switch (matcher.group(2) == null ? "ms" : matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofMillis(amount);
        };
        if (duration.compareTo(minimum) < 0) {
            throw new UnusableValueException("at least " + minimum.toMillis() + "ms");
        }
        return duration;
    }

    /**
     * One of {@code choices}, as {@code nameOf} names them (lower case), in any case; what is expected is
     * {@link #choiceList} of them.
     */
    public static <E> E parseChoice(String value, List<E> choices, Function<E, String> nameOf)
    {
        String lower = value.strip().toLowerCase(Locale.ROOT);
        for (E choice : choices) {
            if (nameOf.apply(choice).equals(lower)) {
                return choice;
            }
        }
        throw new UnusableValueException(choiceList(choices, nameOf));
    }

    /** The choices' names as a sentence says them: {@code a or b}, {@code a, b or c}. */
    public static <E> String choiceList(List<E> choices, Function<E, String> nameOf)
    {
        if (choices.isEmpty()) {
            throw new IllegalArgumentException("no choices");
        }
        List<String> names = choices.stream().map(nameOf).toList();
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /** {@code all} (empty), or a whole number, at least 1. */
    public static OptionalInt parseCountOrAll(String value)
    {
        if (value.equalsIgnoreCase("all")) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(parseInt(value, 1, "all, or a whole number, at least 1"));
    }

    /** {@code true} or {@code false}, in any case. */
    public static boolean parseBoolean(String value)
    {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new UnusableValueException("true or false");
        };
    }

    /** A whole number from {@code minimum} up to {@link Integer#MAX_VALUE}. */
    public static int parseInt(String value, int minimum, String expected)
    {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < minimum) {
                throw new UnusableValueException(expected);
            }
            return parsed;
        }
        catch (NumberFormatException e) {
            throw new UnusableValueException(expected);
        }
    }

    /** A name with at least one character that is not white space, trimmed. */
    public static String parseNonEmpty(String value)
    {
        if (value.isBlank()) {
            throw new UnusableValueException("a non-empty name");
        }
        return value.strip();
    }

    /** A non-empty path the platform accepts; whether it exists is for the caller to check where it is used. */
    public static Path parsePath(String value)
    {
        if (value.isEmpty()) {
            throw new UnusableValueException("a file system path");
        }
        try {
            return Path.of(value);
        }
        catch (InvalidPathException e) {
            throw new UnusableValueException("a file system path");
        }
    }

    /** A placement policy's name ({@link Policy#cliName()}). */
    public static Policy parsePolicy(String value)
    {
        try {
            return Policy.parse(value);
        }
        catch (IllegalArgumentException e) {
            throw new UnusableValueException("one of " + Policy.validNames());
        }
    }

    /**
     * The kind of memory each chiplet's memory is bound to: {@code dram} (its own node), {@code hbm} or
     * {@code cxl-pmem} (the node of that kind local to it, where the machine has one). Not {@code gpu} or
     * {@code unknown}: no chiplet's memory is bound to GPU memory or to a node whose kind nothing told.
     */
    public static MemoryKind parseMemoryKind(String value)
    {
        return MemoryKind.fromJsonName(value)
                .filter(ChipletMemory.SELECTABLE::contains)
                .orElseThrow(() -> new UnusableValueException("dram, hbm or cxl-pmem"));
    }
}
