package io.chiplet.discovery;

import io.chiplet.affinity.ProcessAffinityMask;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.HwlocXmlTopologyReader;
import io.chiplet.topology.OshiTopologyReader;
import io.chiplet.topology.SysfsTopologyReader;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The one entry point the CLI and the engine plugins use to learn the machine. It picks the source: an hwloc XML
 * file when given, else a sysfs snapshot when given, else the live machine's sysfs on Linux, else oshi (macOS,
 * Windows, or a Linux without {@code /sys}).
 */
public final class TopologyDiscovery
{
    private static final Path LIVE_ROOT = Path.of("/");
    private static final Path LIVE_CPU_DIRECTORY = Path.of("/sys/devices/system/cpu");

    private TopologyDiscovery() {}

    /**
     * @throws TopologyException naming the file and what was expected when the chosen source cannot be read
     */
    public static Topology discover(DiscoveryOptions options)
    {
        requireNonNull(options, "options is null");
        return reader(choose(options, hasLiveSysfs())).read(options.virtualChipletCores());
    }

    /** Where a topology is read from. */
    sealed interface Source
    {
        record HwlocXml(Path file) implements Source {}

        record Sysfs(Path root) implements Source {}

        record Oshi() implements Source {}
    }

    /** Pure: the choice, given whether this machine has a live sysfs. */
    static Source choose(DiscoveryOptions options, boolean liveSysfs)
    {
        if (options.hwlocXml().isPresent()) {
            return new Source.HwlocXml(options.hwlocXml().get());
        }
        if (options.fsRoot().isPresent()) {
            return new Source.Sysfs(options.fsRoot().get());
        }
        return liveSysfs ? new Source.Sysfs(LIVE_ROOT) : new Source.Oshi();
    }

    static TopologyReader reader(Source source)
    {
        if (source instanceof Source.HwlocXml xml) {
            return new HwlocXmlTopologyReader(xml.file());
        }
        if (source instanceof Source.Sysfs sysfs) {
            return sysfsReader(sysfs.root());
        }
        return new OshiTopologyReader();
    }

    private static TopologyReader sysfsReader(Path root)
    {
        // Only the live machine adds the process affinity mask; a snapshot never consults the machine it runs on.
        SysfsTopologyReader reader = root.equals(LIVE_ROOT)
                ? SysfsTopologyReader.live(new ProcessAffinityMask())
                : SysfsTopologyReader.snapshot(root);
        return reader::read;
    }

    private static boolean hasLiveSysfs()
    {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux") && Files.isDirectory(LIVE_CPU_DIRECTORY);
    }
}
