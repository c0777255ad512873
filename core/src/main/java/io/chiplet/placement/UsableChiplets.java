package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The chiplets one process can use: those of {@code topology} holding at least one of its allowed, online CPUs, by
 * id. Computed here once, so that every engine adapter (executor slots, leases, Trino's thread placement) agrees on
 * which chiplets and which of their CPUs are in play.
 *
 * @param allowed the allowed CPUs that are online
 */
public record UsableChiplets(Topology topology, CpuSet allowed, List<Chiplet> chiplets)
{
    public UsableChiplets
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(allowed, "allowed is null");
        chiplets = List.copyOf(chiplets);
    }

    /** The chiplets holding a CPU of the topology's own allowed set. */
    public static UsableChiplets of(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        return of(topology, topology.allowed());
    }

    /** The chiplets holding a CPU of {@code allowed} (online ones only): a process's CPUs, or a lease within them. */
    public static UsableChiplets of(Topology topology, CpuSet allowed)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(allowed, "allowed is null");
        CpuSet online = allowed.intersect(topology.online());
        List<Chiplet> usable = topology.chiplets().stream()
                .filter(chiplet -> chiplet.cpus().intersects(online))
                .sorted(Comparator.comparingInt(Chiplet::id))
                .toList();
        return new UsableChiplets(topology, online, usable);
    }

    public boolean isEmpty()
    {
        return chiplets.isEmpty();
    }

    public int size()
    {
        return chiplets.size();
    }

    public List<Integer> ids()
    {
        return chiplets.stream().map(Chiplet::id).toList();
    }

    /**
     * The usable CPUs of chiplet {@code id}: what a thread pinned to that chiplet may run on.
     *
     * @throws IllegalArgumentException when the topology has no such chiplet
     */
    public CpuSet cpusOf(int id)
    {
        Chiplet chiplet = topology.chiplet(id).orElseThrow(() -> new IllegalArgumentException("no chiplet " + id + " in " + topology.source()));
        return chiplet.cpus().intersect(allowed);
    }

    /** The usable CPUs of the chiplet with the fewest; 0 when none is usable. */
    public int smallestCpuCount()
    {
        return chiplets.stream().mapToInt(chiplet -> chiplet.cpus().intersect(allowed).size()).min().orElse(0);
    }

    /**
     * The topology as this process may use it: its allowed CPUs and usable chiplets only, with {@code unknowns}.
     *
     * @throws IllegalArgumentException when no chiplet is usable
     */
    public Topology restricted(List<String> unknowns)
    {
        if (chiplets.isEmpty()) {
            throw new IllegalArgumentException("no chiplet of " + topology.source() + " holds any of the CPUs [" + allowed + "]");
        }
        return topology.restrictedTo(allowed, chiplets, unknowns);
    }
}
