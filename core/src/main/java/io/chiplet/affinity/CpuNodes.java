package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/** Which NUMA nodes hold given CPUs, from {@code sys/devices/system/node/node<N>/cpulist}. */
public final class CpuNodes
{
    private CpuNodes() {}

    /**
     * The nodes holding at least one of {@code cpus}, under {@code fsRoot} ({@code /} for this machine).
     *
     * @throws IllegalStateException naming the directory when the kernel exposes no NUMA nodes (CONFIG_NUMA off)
     */
    public static SortedSet<Integer> containing(Path fsRoot, CpuSet cpus)
    {
        Path nodes = fsRoot.resolve("sys/devices/system/node");
        if (!Files.isDirectory(nodes)) {
            throw new IllegalStateException("no NUMA nodes: " + nodes + " does not exist (a kernel without CONFIG_NUMA)");
        }
        SortedSet<Integer> result = new TreeSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(nodes, "node[0-9]*")) {
            for (Path node : entries) {
                Path cpulist = node.resolve("cpulist");
                CpuSet nodeCpus;
                try {
                    nodeCpus = CpuSet.parseList(Files.readString(cpulist));
                }
                catch (IllegalArgumentException e) {
                    throw new IllegalStateException(cpulist + ": " + e.getMessage(), e);
                }
                if (nodeCpus.intersects(cpus)) {
                    result.add(Integer.parseInt(node.getFileName().toString().substring("node".length())));
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + nodes + ": " + e.getMessage(), e);
        }
        return Collections.unmodifiableSortedSet(result);
    }
}
