package io.chiplet.jmh.workload;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A stand-in for the placement planner: {@code wim} lets every worker run on all allowed CPUs, {@code wicp-local}
 * keeps all workers on the first chiplet (the OLAP study's WICP_Local, §4.4), and every other policy deals workers
 * round-robin over the chiplets, one chiplet's CPUs per worker.
 */
public final class RoundRobinPlacement
        implements PlacementSource
{
    public static final Set<String> POLICIES = Set.of("wim", "win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive");

    @Override
    public List<CpuSet> place(Topology topology, String policy, int workers)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(policy, "policy is null");
        if (!POLICIES.contains(policy)) {
            throw new IllegalArgumentException("unknown placement policy \"" + policy + "\"; expected one of " + POLICIES.stream().sorted().toList());
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be positive but was " + workers);
        }
        List<CpuSet> chiplets = topology.chiplets().stream()
                .map(Chiplet::cpus)
                .map(cpus -> cpus.intersect(topology.allowed()))
                .filter(cpus -> !cpus.isEmpty())
                .toList();
        if (policy.equals("wim") || chiplets.isEmpty()) {
            return List.copyOf(Collections.nCopies(workers, topology.allowed()));
        }
        List<CpuSet> result = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++) {
            result.add(policy.equals("wicp-local") ? chiplets.getFirst() : chiplets.get(worker % chiplets.size()));
        }
        return List.copyOf(result);
    }
}
