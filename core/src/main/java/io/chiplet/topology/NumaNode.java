package io.chiplet.topology;

import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

import static java.util.Collections.unmodifiableSortedMap;
import static java.util.Objects.requireNonNull;

/**
 * A NUMA node: its online CPUs (empty for CPU-less memory nodes), its memory, and the SLIT distance to every
 * node (keyed by node id; empty when unknown).
 */
public record NumaNode(int id, CpuSet cpus, OptionalLong memoryBytes, SortedMap<Integer, Integer> distances)
{
    public NumaNode
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(memoryBytes, "memoryBytes is null");
        distances = unmodifiableSortedMap(new TreeMap<>(requireNonNull(distances, "distances is null")));
    }

    public static NumaNode of(int id, CpuSet cpus, long memoryBytes, Map<Integer, Integer> distances)
    {
        return new NumaNode(id, cpus, OptionalLong.of(memoryBytes), new TreeMap<>(distances));
    }

    public boolean hasCpus()
    {
        return !cpus.isEmpty();
    }
}
