package io.chiplet.spark.settings;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The Spark translation of core's settings: the {@code spark.chiplet.*} key of each of core's declarations
 * ({@link PluginSettings}), read into core's {@link PlacementSettings} (and, by {@link MeasureKeys}, its
 * {@link io.chiplet.settings.MeasureSettings}). Types, defaults, bounds and the wording of a bad value are core's; this
 * class names keys, rejects a misspelt {@code spark.chiplet.*} key, and checks what only an executor's host can (the
 * snapshot root). Trino's counterpart is {@code io.chiplet.trino.connector.TrinoSettings}.
 */
public final class SparkSettings
{
    public static final String PREFIX = "spark.chiplet.";
    public static final String ENABLED = PREFIX + "enabled";
    public static final String POLICY = PREFIX + "policy";
    public static final String MODE = PREFIX + "mode";
    public static final String FS_ROOT = PREFIX + "fsRoot";
    public static final String ADAPTIVE_INTERVAL_MS = PREFIX + "adaptive.intervalMs";
    public static final String REMOTE_ACCESS_THRESHOLD = PREFIX + "adaptive.remoteAccessThreshold";
    public static final String PARTITIONS_RESIZE = PREFIX + "partitions.resize";
    public static final String MEMORY_BIND = PREFIX + "memory.bind";
    public static final String MEMORY_KIND = PREFIX + "memory.kind";
    public static final String VIRTUAL_CHIPLET_CORES = PREFIX + "virtualChipletCores";
    public static final String LEASE_DIR = PREFIX + "leaseDir";
    public static final String PINNING_BACKEND = PREFIX + "pinning.backend";

    /**
     * A machine's own snapshot root, from the environment of the process that starts executors there (a Standalone
     * Worker passes its environment to its executors, as YARN's NodeManagers and Kubernetes pod specs do): machines
     * of two kinds in one cluster each read theirs. {@link #FS_ROOT}, one path for the whole application, wins where
     * set.
     */
    public static final String FS_ROOT_ENVIRONMENT = "CHIPLET_FS_ROOT";

    /** Each placement setting's Spark key, by core's declaration. */
    public static final Map<Setting<?>, String> DECLARED = Map.ofEntries(
            Map.entry(PluginSettings.ENABLED, ENABLED),
            Map.entry(PluginSettings.POLICY, POLICY),
            Map.entry(PluginSettings.MODE, MODE),
            Map.entry(PluginSettings.FS_ROOT, FS_ROOT),
            Map.entry(PluginSettings.ADAPTIVE_INTERVAL, ADAPTIVE_INTERVAL_MS),
            Map.entry(PluginSettings.REMOTE_ACCESS_THRESHOLD, REMOTE_ACCESS_THRESHOLD),
            Map.entry(PluginSettings.PARTITIONS_RESIZE, PARTITIONS_RESIZE),
            Map.entry(PluginSettings.MEMORY_BIND, MEMORY_BIND),
            Map.entry(PluginSettings.MEMORY_KIND, MEMORY_KIND),
            Map.entry(PluginSettings.VIRTUAL_CHIPLET_CORES, VIRTUAL_CHIPLET_CORES),
            Map.entry(PluginSettings.LEASE_DIR, LEASE_DIR),
            Map.entry(PluginSettings.PINNING_BACKEND, PINNING_BACKEND));

    public static final Set<String> KEYS = union(Set.of(
            ENABLED, POLICY, MODE, FS_ROOT, ADAPTIVE_INTERVAL_MS, REMOTE_ACCESS_THRESHOLD, PARTITIONS_RESIZE,
            MEMORY_BIND, MEMORY_KIND, VIRTUAL_CHIPLET_CORES, LEASE_DIR, PINNING_BACKEND), MeasureKeys.KEYS);

    private static Set<String> union(Set<String> placement, Set<String> measurement)
    {
        Set<String> all = new TreeSet<>(placement);
        all.addAll(measurement);
        return Set.copyOf(all);
    }

    /** {@code conf} with {@link #FS_ROOT} taken from {@link #FS_ROOT_ENVIRONMENT} where the application set none. */
    public static Map<String, String> withHostFsRoot(Map<String, String> conf, Map<String, String> environment)
    {
        requireNonNull(conf, "conf is null");
        requireNonNull(environment, "environment is null");
        String host = environment.getOrDefault(FS_ROOT_ENVIRONMENT, "").strip();
        if (conf.containsKey(FS_ROOT) || host.isEmpty()) {
            return conf;
        }
        Map<String, String> withRoot = new HashMap<>(conf);
        withRoot.put(FS_ROOT, host);
        return Map.copyOf(withRoot);
    }

    private SparkSettings() {}

    /** Every setting at its default. */
    public static PlacementSettings defaults()
    {
        return ((Valid) parse(Map.of())).settings();
    }

    /** The outcome of reading the settings: valid ones, or the first bad setting. */
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

    /** A setting the plugin cannot use: which one, the value given and what would have been accepted. */
    public record Problem(String key, String value, String expected)
            implements Parsed
    {
        public Problem
        {
            requireNonNull(key, "key is null");
            requireNonNull(value, "value is null");
            requireNonNull(expected, "expected is null");
        }

        public String message()
        {
            return "%s = '%s' is not usable: expected %s".formatted(key, value, expected);
        }
    }

    /**
     * Reads the settings from a Spark configuration's entries (other entries are ignored). A {@code spark.chiplet.*}
     * key that is not a setting is a problem too: a misspelt setting silently falling back to its default would
     * look like the plugin ignoring the user.
     */
    public static Parsed parse(Map<String, String> conf)
    {
        requireNonNull(conf, "conf is null");
        try {
            PluginSettingsReader.rejectUnknown(conf, key -> key.startsWith(PREFIX), KEYS, "one of the settings " + String.join(", ", new TreeSet<>(KEYS)));
            PluginSettingsReader settings = PluginSettingsReader.of(DECLARED, conf);
            return new Valid(PlacementSettings.read(settings));
        }
        catch (InvalidSettingException e) {
            return new Problem(e.setting(), e.value(), e.expected());
        }
    }

    /**
     * The snapshot named by {@link #FS_ROOT}, checked on the host that reads it (an executor's host, not
     * necessarily the driver's).
     */
    public static Optional<Problem> checkFsRoot(PlacementSettings settings)
    {
        return settings.fsRoot().flatMap(root -> {
            if (!Files.isDirectory(root) || !Files.isReadable(root)) {
                return Optional.of(new Problem(FS_ROOT, root.toString(), "a readable directory holding a sysfs snapshot (sys/devices/system/cpu)"));
            }
            if (!Files.isDirectory(root.resolve("sys/devices/system/cpu"))) {
                return Optional.of(new Problem(FS_ROOT, root.toString(), "a directory holding a sysfs snapshot: sys/devices/system/cpu is missing"));
            }
            return Optional.empty();
        });
    }
}
