package io.chiplet.topology;

import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where {@link io.chiplet.discovery.TopologyDiscovery} reads the machine from, and how it splits chiplets. Messages
 * name the CLI options ({@code --fs-root}, {@code --hwloc-xml}, {@code --virtual-chiplet-cores}) because that is where users set them.
 *
 * @param fsRoot a snapshot whose {@code sys/} and {@code proc/} sit under this folder, as hwloc's {@code HWLOC_FSROOT}
 * @param hwlocXml a file written by {@code lstopo --of xml}
 * @param virtualChipletCores 0 for real chiplets only; N splits every chiplet into virtual chiplets of N cores
 */
public record DiscoveryOptions(Optional<Path> fsRoot, Optional<Path> hwlocXml, int virtualChipletCores)
{
    public DiscoveryOptions
    {
        requireNonNull(fsRoot, "fsRoot is null");
        requireNonNull(hwlocXml, "hwlocXml is null");
        if (fsRoot.isPresent() && hwlocXml.isPresent()) {
            throw new IllegalArgumentException("--fs-root and --hwloc-xml are exclusive");
        }
        if (virtualChipletCores < 0) {
            throw new IllegalArgumentException("--virtual-chiplet-cores must be 0 (off) or a positive number of cores but was " + virtualChipletCores);
        }
    }

    /** The live machine, real chiplets only. */
    public static DiscoveryOptions live()
    {
        return new DiscoveryOptions(Optional.empty(), Optional.empty(), 0);
    }

    public static DiscoveryOptions fsRoot(Path root)
    {
        return new DiscoveryOptions(Optional.of(root), Optional.empty(), 0);
    }

    public static DiscoveryOptions hwlocXml(Path file)
    {
        return new DiscoveryOptions(Optional.empty(), Optional.of(file), 0);
    }

    public DiscoveryOptions withVirtualChipletCores(int cores)
    {
        return new DiscoveryOptions(fsRoot, hwlocXml, cores);
    }
}
