package io.chiplet.topology;

import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * PLACEHOLDER written on the {@code cli} branch so that {@code TopologyCommand} compiles; the discovery branch
 * owns the real class. Drop this file at merge.
 */
public record DiscoveryOptions(Optional<Path> fsRoot, Optional<Path> hwlocXml, int virtualChipletCores)
{
    public DiscoveryOptions
    {
        requireNonNull(fsRoot, "fsRoot is null");
        requireNonNull(hwlocXml, "hwlocXml is null");
    }
}
