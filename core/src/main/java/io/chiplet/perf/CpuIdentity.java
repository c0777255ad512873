package io.chiplet.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * The processor's vendor, family and model as {@code /proc/cpuinfo} reports them for the first CPU: what perf's
 * {@code pmu-events/arch/x86/mapfile.csv} keys its event tables on. Family and model are the displayed values
 * (extended family and model already folded in by the kernel).
 */
public record CpuIdentity(String vendor, int family, int model, String modelName)
{
    public static final String AMD = "AuthenticAMD";
    public static final String INTEL = "GenuineIntel";

    public CpuIdentity
    {
        requireNonNull(vendor, "vendor is null");
        requireNonNull(modelName, "modelName is null");
    }

    /** Reads {@code proc/cpuinfo} under {@code fsRoot}; empty when the file is absent or names no x86 identity. */
    public static Optional<CpuIdentity> read(Path fsRoot)
    {
        Path cpuinfo = fsRoot.resolve("proc/cpuinfo");
        try {
            return parse(Files.readAllLines(cpuinfo), cpuinfo.toString());
        }
        catch (NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + cpuinfo, e);
        }
    }

    /**
     * Parses the first processor block of a cpuinfo text.
     *
     * @throws IllegalArgumentException naming {@code source} when a family or model is not a number
     */
    public static Optional<CpuIdentity> parse(List<String> lines, String source)
    {
        String vendor = null;
        OptionalInt family = OptionalInt.empty();
        OptionalInt model = OptionalInt.empty();
        String modelName = "";
        for (String line : lines) {
            if (line.isBlank()) {
                if (vendor != null) {
                    break;
                }
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "vendor_id" -> vendor = value;
                case "cpu family" -> family = OptionalInt.of(number(value, key, source));
                case "model" -> model = OptionalInt.of(number(value, key, source));
                case "model name" -> modelName = value;
                default -> {}
            }
        }
        if (vendor == null || family.isEmpty() || model.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CpuIdentity(vendor, family.getAsInt(), model.getAsInt(), modelName));
    }

    public boolean isAmd()
    {
        return vendor.equals(AMD);
    }

    public boolean isIntel()
    {
        return vendor.equals(INTEL);
    }

    private static int number(String value, String key, String source)
    {
        try {
            return Integer.parseInt(value);
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + ": '" + key + "' should be a decimal number, found '" + value + "'");
        }
    }

    @Override
    public String toString()
    {
        return vendor + " family 0x" + Integer.toHexString(family) + " model 0x" + Integer.toHexString(model)
                + (modelName.isEmpty() ? "" : " (" + modelName + ")");
    }
}
