package io.chiplet.jmh.workload;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** Two CPUs a latency measurement pins its threads to, written {@code "3:17"} in a JMH parameter. */
public record CpuPair(int first, int second)
{
    /** Machines with more CPUs than this are measured per chiplet pair, not per CPU pair. */
    public static final int MAX_FULL_MATRIX_CPUS = 16;

    public CpuPair
    {
        if (first < 0 || second < 0 || first == second) {
            throw new IllegalArgumentException("a CPU pair needs two distinct CPUs but got " + first + " and " + second);
        }
    }

    /**
     * @throws IllegalArgumentException naming the text when it is not {@code A:B}
     */
    public static CpuPair parse(String text)
    {
        requireNonNull(text, "text is null");
        String[] parts = text.strip().split(":", -1);
        try {
            if (parts.length == 2) {
                return new CpuPair(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
            }
        }
        catch (NumberFormatException ignored) {
            // reported below with the expected form
        }
        throw new IllegalArgumentException("expected a CPU pair like 0:1 but found \"" + text + "\"");
    }

    /**
     * The pairs to measure: every pair of allowed CPUs on small machines; on large ones the first CPU of each chiplet
     * against the first of every other, plus its first and second CPU for the latency inside the chiplet.
     */
    public static List<CpuPair> plan(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        List<CpuPair> pairs = new ArrayList<>();
        int[] cpus = topology.allowed().toArray();
        if (cpus.length <= MAX_FULL_MATRIX_CPUS) {
            for (int i = 0; i < cpus.length; i++) {
                for (int j = i + 1; j < cpus.length; j++) {
                    pairs.add(new CpuPair(cpus[i], cpus[j]));
                }
            }
            return List.copyOf(pairs);
        }
        List<CpuSet> chiplets = topology.chiplets().stream()
                .map(Chiplet::cpus)
                .map(set -> set.intersect(topology.allowed()))
                .filter(set -> !set.isEmpty())
                .toList();
        for (int i = 0; i < chiplets.size(); i++) {
            int[] own = chiplets.get(i).toArray();
            if (own.length > 1) {
                pairs.add(new CpuPair(own[0], own[1]));
            }
            for (int j = i + 1; j < chiplets.size(); j++) {
                pairs.add(new CpuPair(own[0], chiplets.get(j).first()));
            }
        }
        return List.copyOf(pairs);
    }

    @Override
    public String toString()
    {
        return first + ":" + second;
    }
}
