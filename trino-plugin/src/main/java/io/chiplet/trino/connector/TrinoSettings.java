package io.chiplet.trino.connector;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;
import io.chiplet.trino.measure.MeasureKeys;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The Trino translation of core's settings: the catalog property ({@code chiplet.*} of a catalog file with
 * {@code connector.name=chiplet}) of each of core's declarations ({@link PluginSettings}), read into core's
 * {@link PlacementSettings} (and, by {@link MeasureKeys}, its {@link io.chiplet.settings.MeasureSettings}); docs/trino.md
 * documents each with its default. Types, defaults, bounds and the wording of a bad value are core's; this class names
 * properties and rejects a misspelt one. It is not an airlift {@code @Config} bean: Trino hands a connector factory its
 * catalog's properties as a map, and reading them through core's declarations keeps Spark and Trino accepting the same
 * values. Spark's counterpart is {@code io.chiplet.spark.settings.SparkSettings}.
 */
public final class TrinoSettings
{
    public static final String ENABLED = "chiplet.enabled";
    public static final String POLICY = "chiplet.policy";
    public static final String FS_ROOT = "chiplet.fs-root";
    public static final String ADAPTIVE_INTERVAL = "chiplet.adaptive.interval";
    public static final String REMOTE_ACCESS_THRESHOLD = "chiplet.adaptive.remote-access-threshold";
    public static final String MEMORY_BIND = "chiplet.memory.bind";
    public static final String MEMORY_KIND = "chiplet.memory.kind";
    public static final String VIRTUAL_CHIPLET_CORES = "chiplet.virtual-chiplet-cores";
    public static final String LEASE_DIR = "chiplet.lease-dir";
    public static final String CHIPLETS_PER_NODE = "chiplet.chiplets-per-node";
    public static final String RESCAN_INTERVAL = "chiplet.rescan-interval";

    public static final List<String> PROPERTIES = List.of(
            ENABLED, POLICY, FS_ROOT, ADAPTIVE_INTERVAL, REMOTE_ACCESS_THRESHOLD, MEMORY_BIND, MEMORY_KIND, VIRTUAL_CHIPLET_CORES, LEASE_DIR,
            CHIPLETS_PER_NODE, RESCAN_INTERVAL);

    /** Every property of a chiplet catalog: these and {@link MeasureKeys#PROPERTIES} (read apart, so that a bad one costs the measurement, never the placement). */
    private static final List<String> KNOWN = Stream.concat(PROPERTIES.stream(), MeasureKeys.PROPERTIES.stream()).toList();

    /** Each setting's catalog property, by core's declaration (which holds its type, default and bounds). */
    public static final Map<Setting<?>, String> DECLARED = Map.ofEntries(
            Map.entry(PluginSettings.ENABLED, ENABLED),
            Map.entry(PluginSettings.POLICY, POLICY),
            Map.entry(PluginSettings.FS_ROOT, FS_ROOT),
            Map.entry(PluginSettings.ADAPTIVE_INTERVAL, ADAPTIVE_INTERVAL),
            Map.entry(PluginSettings.REMOTE_ACCESS_THRESHOLD, REMOTE_ACCESS_THRESHOLD),
            Map.entry(PluginSettings.MEMORY_BIND, MEMORY_BIND),
            Map.entry(PluginSettings.MEMORY_KIND, MEMORY_KIND),
            Map.entry(PluginSettings.VIRTUAL_CHIPLET_CORES, VIRTUAL_CHIPLET_CORES),
            Map.entry(PluginSettings.LEASE_DIR, LEASE_DIR),
            Map.entry(PluginSettings.CHIPLETS_PER_NODE, CHIPLETS_PER_NODE),
            Map.entry(PluginSettings.RESCAN_INTERVAL, RESCAN_INTERVAL));

    private TrinoSettings() {}

    /** Every setting at its default. */
    public static PlacementSettings defaults()
    {
        return ((Valid) parse(Map.of())).settings();
    }

    /** Reading a catalog's properties gives valid settings or the first one that is not usable. */
    public sealed interface Parsed
            permits Valid, Problem
    {}

    public record Valid(PlacementSettings settings)
            implements Parsed
    {
        public Valid
        {
            requireNonNull(settings, "settings is null");
        }
    }

    /** A property the plugin cannot use: its name, the value given and what it expected. */
    public record Problem(String property, String value, String expected)
            implements Parsed
    {
        public Problem
        {
            requireNonNull(property, "property is null");
            requireNonNull(value, "value is null");
            requireNonNull(expected, "expected is null");
        }

        public String message()
        {
            return "%s=%s is not usable: expected %s".formatted(property, value, expected);
        }
    }

    /**
     * Reads the catalog's properties. A {@code chiplet.*} property that is none of {@link #PROPERTIES} is a problem
     * too: a misspelt setting quietly left at its default would look like the plugin ignoring the operator.
     */
    public static Parsed parse(Map<String, String> properties)
    {
        requireNonNull(properties, "properties is null");
        try {
            PluginSettingsReader.rejectUnknown(properties, key -> !key.equals("connector.name"), KNOWN, "one of the properties " + String.join(", ", KNOWN));
            PluginSettingsReader settings = PluginSettingsReader.of(DECLARED, properties);
            return new Valid(PlacementSettings.read(settings));
        }
        catch (InvalidSettingException e) {
            return new Problem(e.setting(), e.value(), e.expected());
        }
    }
}
