package io.chiplet.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.placement.Policy;
import io.chiplet.topology.MemoryKind;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * The placement settings of either plugin, parsed: what an adapter hands core, the same record in every engine (with
 * {@link MeasureSettings}, the measurement's). Read by {@link #read} from {@link PluginSettings}' declarations under the
 * engine's keys; a declaration the engine gives no key (Spark reads no {@code chiplets-per-node}, Trino no
 * {@code mode}) takes its declared default, so that adding a setting to core adds a component here and a key in each
 * engine that reads it, nothing else.
 *
 * @param enabled false: the plugin places nothing and the engine runs as without it
 * @param policy how the engine's threads spread over the chiplets
 * @param mode Spark only: how the plugin places work (task threads, a whole executor per chiplet, or chosen per executor)
 * @param fsRoot read the topology from this sysfs snapshot instead of {@code /}; pinning still acts on the live kernel
 *         and only ever uses CPUs this process may use
 * @param adaptiveInterval how often the adaptive policy samples the remote-access signal and revises each spread
 * @param remoteAccessThreshold signal events per adaptive interval above which a spread widens
 * @param partitionsResize Spark only: the driver sizes the shuffle partitions the user left unset
 * @param memoryBind keep each chiplet's memory on its node
 * @param memoryKind with {@code memoryBind}, the kind of memory a chiplet's memory comes from: {@code dram} its own
 *         node, {@code hbm} or {@code cxl-pmem} the node of that kind local to it (core's {@code MemoryBinding})
 * @param virtualChipletCores 0 for real chiplets; N splits every chiplet into virtual ones of N cores
 * @param leaseDirectory where the JVMs of one host record the chiplets they lease
 * @param pinningBackend Spark only: which native layer pins threads
 * @param chipletsPerNode Trino only: how many chiplets a node leases; empty for all of them
 * @param rescanInterval Trino only: how often the node's threads are scanned for new and retired query threads
 */
public record PlacementSettings(
        boolean enabled,
        Policy policy,
        PlacementMode mode,
        Optional<Path> fsRoot,
        Duration adaptiveInterval,
        double remoteAccessThreshold,
        boolean partitionsResize,
        boolean memoryBind,
        MemoryKind memoryKind,
        int virtualChipletCores,
        Path leaseDirectory,
        PinningBackend.Kind pinningBackend,
        OptionalInt chipletsPerNode,
        Duration rescanInterval)
{
    public PlacementSettings
    {
        requireNonNull(policy, "policy is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(fsRoot, "fsRoot is null");
        requireNonNull(adaptiveInterval, "adaptiveInterval is null");
        requireNonNull(memoryKind, "memoryKind is null");
        requireNonNull(leaseDirectory, "leaseDirectory is null");
        requireNonNull(pinningBackend, "pinningBackend is null");
        requireNonNull(chipletsPerNode, "chipletsPerNode is null");
        requireNonNull(rescanInterval, "rescanInterval is null");
    }

    /**
     * The placement settings under the engine's keys.
     *
     * @throws InvalidSettingException naming the engine's key of the first setting that is not usable
     */
    public static PlacementSettings read(PluginSettingsReader settings)
    {
        requireNonNull(settings, "settings is null");
        return new PlacementSettings(
                settings.readOrDefault(PluginSettings.ENABLED),
                settings.readOrDefault(PluginSettings.POLICY),
                settings.readOrDefault(PluginSettings.MODE),
                settings.readIfKeyed(PluginSettings.FS_ROOT),
                settings.readOrDefault(PluginSettings.ADAPTIVE_INTERVAL),
                settings.readOrDefault(PluginSettings.REMOTE_ACCESS_THRESHOLD),
                settings.readOrDefault(PluginSettings.PARTITIONS_RESIZE),
                settings.readOrDefault(PluginSettings.MEMORY_BIND),
                settings.readOrDefault(PluginSettings.MEMORY_KIND),
                settings.readOrDefault(PluginSettings.VIRTUAL_CHIPLET_CORES),
                settings.readOrDefault(PluginSettings.LEASE_DIR),
                settings.readOrDefault(PluginSettings.PINNING_BACKEND),
                settings.readOrDefault(PluginSettings.CHIPLETS_PER_NODE),
                settings.readOrDefault(PluginSettings.RESCAN_INTERVAL));
    }

    /** These settings with {@code mode} in place of the configured one (what {@link PlacementMode#AUTO} chose). */
    public PlacementSettings withMode(PlacementMode mode)
    {
        return new PlacementSettings(enabled, policy, mode, fsRoot, adaptiveInterval, remoteAccessThreshold, partitionsResize, memoryBind, memoryKind,
                virtualChipletCores, leaseDirectory, pinningBackend, chipletsPerNode, rescanInterval);
    }
}
