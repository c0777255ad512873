package io.chiplet.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code --fs-root DIR | --hwloc-xml FILE}: where the topology comes from; neither means the live machine. Used as an
 * exclusive, optional argument group, where {@code required} means "the one chosen".
 */
final class TopologySourceOptions
{
    @Option(names = "--fs-root", paramLabel = "DIR", required = true,
            description = "Read a snapshot whose sys/ and proc/ are under DIR (as hwloc's HWLOC_FSROOT); nothing of the live machine is consulted.")
    Path fsRoot;

    @Option(names = "--hwloc-xml", paramLabel = "FILE", required = true,
            description = "Read an hwloc XML file (lstopo --of xml), e.g. of a production machine.")
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
