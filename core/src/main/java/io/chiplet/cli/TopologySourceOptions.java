package io.chiplet.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;

/** {@code --fs-root DIR | --hwloc-xml FILE}: where the topology comes from; neither means the live machine. */
final class TopologySourceOptions
{
    @Option(names = "--fs-root", paramLabel = "DIR", description = "Read a sysfs/procfs snapshot whose sys/ and proc/ sit under DIR.")
    Path fsRoot;

    @Option(names = "--hwloc-xml", paramLabel = "FILE", description = "Read hwloc's XML export of a machine.")
    Path hwlocXml;

    Optional<Path> fsRoot()
    {
        return Optional.ofNullable(fsRoot);
    }

    Optional<Path> hwlocXml()
    {
        return Optional.ofNullable(hwlocXml);
    }
}
