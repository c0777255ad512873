package io.chiplet.topology;

import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

import static java.util.Collections.unmodifiableSortedMap;
import static java.util.Objects.requireNonNull;

/**
 * A NUMA node: its online CPUs (empty for CPU-less memory nodes), its memory, the SLIT distance to every node (keyed
 * by node id; empty when unknown), the CPUs its memory is local to, and what kind of memory it holds.
 *
 * @param localCpus the CPUs this node's memory is local to: its own CPUs, or for a CPU-less node (HBM in flat mode,
 *         CXL, PMEM, GPU memory) the CPUs of its HMAT initiators ({@code access1/initiators}, else
 *         {@code access0/initiators}), else of its nearest nodes by distance (hwloc's rule); empty when nothing says,
 *         or when every other node is as near (local to no CPU in particular)
 */
public record NumaNode(int id, CpuSet cpus, OptionalLong memoryBytes, SortedMap<Integer, Integer> distances, CpuSet localCpus, MemoryKind kind)
{
    public NumaNode
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(memoryBytes, "memoryBytes is null");
        distances = unmodifiableSortedMap(new TreeMap<>(requireNonNull(distances, "distances is null")));
        requireNonNull(localCpus, "localCpus is null");
        requireNonNull(kind, "kind is null");
    }

    /** A node whose memory is local to its own CPUs: DRAM when it has CPUs, of unknown kind and locality when not. */
    public NumaNode(int id, CpuSet cpus, OptionalLong memoryBytes, SortedMap<Integer, Integer> distances)
    {
        this(id, cpus, memoryBytes, distances, cpus, cpus.isEmpty() ? MemoryKind.UNKNOWN : MemoryKind.DRAM);
    }

    public static NumaNode of(int id, CpuSet cpus, long memoryBytes, Map<Integer, Integer> distances)
    {
        return new NumaNode(id, cpus, OptionalLong.of(memoryBytes), new TreeMap<>(distances));
    }

    public boolean hasCpus()
    {
        return !cpus.isEmpty();
    }

    NumaNode withLocality(CpuSet localCpus, MemoryKind kind)
    {
        return new NumaNode(id, cpus, memoryBytes, distances, localCpus, kind);
    }
}
