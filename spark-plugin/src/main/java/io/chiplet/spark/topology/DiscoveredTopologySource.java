package io.chiplet.spark.topology;

import io.chiplet.affinity.PinnableCpusTracker;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.NoUsableChipletException;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Reads the executor's machine through {@link TopologyDiscovery}: the live sysfs, or the snapshot named by
 * {@code spark.chiplet.fsRoot}, split into virtual chiplets when {@code spark.chiplet.virtualChipletCores} is set.
 *
 * <p>A snapshot describes some machine, not necessarily this one, while pinning acts on this one. So a snapshot's
 * topology is cut down to the CPUs this process may use here (online, in its cgroup cpuset and its affinity mask):
 * chiplets left without any are dropped, and when nothing is left the plugin fails open.
 */
public final class DiscoveredTopologySource
        implements TopologySource
{
    private final Supplier<CpuSet> liveAllowed;

    public DiscoveredTopologySource()
    {
        // Online CPUs in this process's cgroup cpuset and its affinity mask (as taskset set it), read by core.
        this(PinnableCpusTracker::readLive);
    }

    DiscoveredTopologySource(Supplier<CpuSet> liveAllowed)
    {
        this.liveAllowed = requireNonNull(liveAllowed, "liveAllowed is null");
    }

    @Override
    public Topology read(PlacementSettings settings)
    {
        requireNonNull(settings, "settings is null");
        Topology topology = TopologyDiscovery.discover(new DiscoveryOptions(settings.fsRoot(), Optional.empty(), settings.virtualChipletCores()));
        if (settings.fsRoot().isEmpty()) {
            // Live discovery already applies the cgroup cpuset and the process affinity mask.
            return topology;
        }
        return restrictTo(topology, liveAllowed.get(), settings.fsRoot().get());
    }

    /**
     * The snapshot's topology limited to {@code live}: its allowed CPUs intersected, chiplets without any of them
     * dropped.
     *
     * @throws IllegalStateException naming the snapshot's setting and core's {@link NoUsableChipletException} message when no chiplet keeps a CPU
     */
    public static Topology restrictTo(Topology topology, CpuSet live, Path fsRoot)
    {
        PlacementDomain share;
        try {
            share = PlacementDomain.ofProcess(topology, live);
        }
        catch (NoUsableChipletException e) {
            // Core's one message, prefixed with the setting that named the snapshot.
            throw new IllegalStateException(SparkSettings.FS_ROOT + " = " + fsRoot + ": " + e.getMessage(), e);
        }
        CpuSet allowed = share.shareCpus();
        List<Chiplet> kept = share.chiplets();
        List<String> unknowns = new ArrayList<>(topology.unknowns());
        if (!allowed.equals(topology.allowed())) {
            unknowns.add("pinning limited to the CPUs this process may use here: " + allowed.toList()
                    + (kept.size() < topology.chiplets().size() ? " (" + (topology.chiplets().size() - kept.size()) + " chiplets of the snapshot have none of them)" : ""));
        }
        return topology.restrictedTo(allowed, kept, unknowns);
    }
}
