package io.chiplet.spark.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.placement.Policy;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PlacementMode;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;
import io.chiplet.topology.MemoryKind;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The plugin's settings, every one a {@code spark.chiplet.*} entry of the Spark configuration.
 *
 * @param policy how task slots spread over the executor's chiplets
 * @param fsRoot read the topology from this snapshot (a directory holding {@code sys/}) instead of {@code /};
 *         pinning still acts on the live kernel
 * @param adaptiveIntervalMs how often the adaptive policy re-evaluates each executor's spread
 * @param remoteAccessThreshold remote accesses per interval above which the adaptive policy widens the spread
 *
 * <p>Every setting is declared once in core's {@link PluginSettings} (type, default, bounds); this record only names
 * the Spark key of each.
 * @param memoryKind with {@code bindMemory}, the kind of memory a chiplet's memory comes from: {@code dram} its own
 *         node, {@code hbm} or {@code cxl-pmem} the node of that kind local to it (core's {@code MemoryBinding})
 * @param virtualChipletCores when positive, split every chiplet into virtual ones of this many cores
 */
public record ChipletSettings(
        boolean enabled,
        Policy policy,
        PlacementMode mode,
        Optional<Path> fsRoot,
        long adaptiveIntervalMs,
        double remoteAccessThreshold,
        boolean resizePartitions,
        boolean bindMemory,
        MemoryKind memoryKind,
        int virtualChipletCores,
        Path leaseDir,
        PinningBackend.Kind pinningBackend)
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

    public ChipletSettings
    {
        requireNonNull(policy, "policy is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(fsRoot, "fsRoot is null");
        requireNonNull(memoryKind, "memoryKind is null");
        requireNonNull(leaseDir, "leaseDir is null");
        requireNonNull(pinningBackend, "pinningBackend is null");
    }

    public static ChipletSettings defaults()
    {
        return ((Valid) parse(Map.of())).settings();
    }

    /** The outcome of reading the settings: valid ones, or the first bad setting. */
    public sealed interface Parsed
            permits Valid, Problem
    {}

    public record Valid(ChipletSettings settings)
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
            return new Valid(new ChipletSettings(
                    settings.read(PluginSettings.ENABLED),
                    settings.read(PluginSettings.POLICY),
                    settings.read(PluginSettings.MODE),
                    settings.readIfSet(PluginSettings.FS_ROOT),
                    settings.read(PluginSettings.ADAPTIVE_INTERVAL).toMillis(),
                    settings.read(PluginSettings.REMOTE_ACCESS_THRESHOLD),
                    settings.read(PluginSettings.PARTITIONS_RESIZE),
                    settings.read(PluginSettings.MEMORY_BIND),
                    settings.read(PluginSettings.MEMORY_KIND),
                    settings.read(PluginSettings.VIRTUAL_CHIPLET_CORES),
                    settings.read(PluginSettings.LEASE_DIR),
                    settings.read(PluginSettings.PINNING_BACKEND)));
        }
        catch (InvalidSettingException e) {
            return new Problem(e.setting(), e.value(), e.expected());
        }
    }

    /** These settings with {@code mode} in place of the configured mode (what {@link PlacementMode#AUTO} chose). */
    public ChipletSettings withMode(PlacementMode mode)
    {
        return new ChipletSettings(enabled, policy, mode, fsRoot, adaptiveIntervalMs, remoteAccessThreshold, resizePartitions, bindMemory,
                memoryKind, virtualChipletCores, leaseDir, pinningBackend);
    }

    /**
     * The snapshot named by {@code fsRoot}, checked on the host that reads it (an executor's host, not
     * necessarily the driver's).
     */
    public Optional<Problem> checkFsRoot()
    {
        return fsRoot.flatMap(root -> {
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
