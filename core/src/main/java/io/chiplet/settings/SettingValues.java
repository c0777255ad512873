package io.chiplet.settings;

import io.chiplet.placement.Policy;
import io.chiplet.topology.ChipletMemory;
import io.chiplet.topology.MemoryKind;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The value parsers both plugins' settings share. Each throws {@link UnusableValueException} saying what it expected.
 */
public final class SettingValues
{
    private SettingValues() {}

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
