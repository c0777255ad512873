package io.chiplet.trino.connector;

import io.chiplet.placement.Policy;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsReader;
import io.chiplet.settings.Setting;
import io.chiplet.topology.MemoryKind;
import io.chiplet.trino.measure.MeasureKeys;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * The {@code chiplet.*} settings of a catalog file with {@code connector.name=chiplet}; docs/trino.md documents each
 * with its default.
 *
 * @param enabled false: the catalog's tables work, nothing is pinned
 * @param policy how query threads spread over the node's chiplets
 * @param fsRoot read the topology from this sysfs snapshot instead of {@code /}; pinning still acts on the live
 *         kernel and only ever uses CPUs this process may use
 * @param adaptiveInterval how often the adaptive policy samples every thread's remote-access signal
 * @param remoteAccessThreshold signal events per adaptive interval above which a thread's spread widens
 * @param memoryBind keep every thread's CPUs inside one NUMA node so that its first-touch pages are local
 * @param memoryKind the kind of memory each chiplet's memory should come from ({@code dram}, its own node; {@code hbm}
 *         or {@code cxl-pmem}, the node of that kind local to it): Trino's threads cannot be given a memory policy by
 *         the plugin, so for other kinds than DRAM the node says which nodes to start the JVM bound to
 * @param virtualChipletCores 0 for real chiplets; N splits every chiplet into virtual chiplets of N cores
 * @param leaseDirectory where the host-wide chiplet leases live
 * @param chipletsPerNode how many chiplets this node leases; empty for all of them (one Trino JVM per host)
 * @param rescanInterval how often the node's threads are scanned for new and retired query threads (under
 *         {@code adaptive}, the adaptive interval instead)
 */
public record ChipletConfig(
        boolean enabled,
        Policy policy,
        Optional<Path> fsRoot,
        Duration adaptiveInterval,
        double remoteAccessThreshold,
        boolean memoryBind,
        MemoryKind memoryKind,
        int virtualChipletCores,
        Path leaseDirectory,
        OptionalInt chipletsPerNode,
        Duration rescanInterval)
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

    /** Every property of a chiplet catalog: these and {@link MeasureSettings#PROPERTIES} (read apart, so that a bad one costs the measurement, never the placement). */
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

    public ChipletConfig
    {
        requireNonNull(policy, "policy is null");
        requireNonNull(fsRoot, "fsRoot is null");
        requireNonNull(memoryKind, "memoryKind is null");
        requireNonNull(adaptiveInterval, "adaptiveInterval is null");
        requireNonNull(leaseDirectory, "leaseDirectory is null");
        requireNonNull(chipletsPerNode, "chipletsPerNode is null");
        requireNonNull(rescanInterval, "rescanInterval is null");
    }

    public static ChipletConfig defaults()
    {
        return ((Valid) parse(Map.of())).config();
    }

    /** Reading a catalog's properties gives valid settings or the first one that is not usable. */
    public sealed interface Parsed
            permits Valid, Problem
    {}

    public record Valid(ChipletConfig config)
            implements Parsed
    {
        public Valid
        {
            requireNonNull(config, "config is null");
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
            return new Valid(new ChipletConfig(
                    settings.read(PluginSettings.ENABLED),
                    settings.read(PluginSettings.POLICY),
                    settings.readIfSet(PluginSettings.FS_ROOT),
                    settings.read(PluginSettings.ADAPTIVE_INTERVAL),
                    settings.read(PluginSettings.REMOTE_ACCESS_THRESHOLD),
                    settings.read(PluginSettings.MEMORY_BIND),
                    settings.read(PluginSettings.MEMORY_KIND),
                    settings.read(PluginSettings.VIRTUAL_CHIPLET_CORES),
                    settings.read(PluginSettings.LEASE_DIR),
                    settings.read(PluginSettings.CHIPLETS_PER_NODE),
                    settings.read(PluginSettings.RESCAN_INTERVAL)));
        }
        catch (InvalidSettingException e) {
            return new Problem(e.setting(), e.value(), e.expected());
        }
    }
}
