package io.chiplet.spark;

import io.chiplet.affinity.ChipletLeases;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The chiplets of its host one executor places its tasks on ({@code spark.chiplet.mode=task}). An executor with
 * at least as many cores as the host has usable CPUs owns the host and uses every chiplet. Otherwise (several
 * executors per host: YARN, standalone without cpusets, local-cluster) it takes just enough chiplets for its own
 * cores: host-wide leases in {@code spark.chiplet.leaseDir} through {@link ChipletLeases}, so executors of any
 * application on the host take different chiplets while any is free, and, when the lease directory cannot be used,
 * a deterministic split by executor id, so executors numbered in sequence still land on different chiplets.
 *
 * @param topology the executor's machine confined to its chiplets (its allowed CPUs are theirs)
 * @param ownsHost whether the executor uses every chiplet of the host
 * @param description what the executor got, for its log line ("leased chiplet 1 (CPUs [1]): exclusive")
 */
record HostShare(Topology topology, boolean ownsHost, String description, AutoCloseable release)
        implements AutoCloseable
{
    HostShare
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(description, "description is null");
        requireNonNull(release, "release is null");
    }

    /** The whole host: one executor owning it, as local mode and one-executor-per-host clusters have it. */
    static HostShare whole(Topology topology, String why)
    {
        return new HostShare(topology, true, "every chiplet of the host (" + why + ")", () -> {});
    }

    /**
     * Claims the chiplets for an executor of {@code cores} cores.
     *
     * @param leaseDir the host-wide lease directory
     */
    static HostShare claim(Topology topology, int cores, String executorId, java.nio.file.Path leaseDir)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(leaseDir, "leaseDir is null");
        List<Chiplet> usable = usable(topology);
        int usableCpus = topology.allowed().size();
        if (cores >= usableCpus) {
            return whole(topology, "its " + cores + " cores cover the " + usableCpus + " usable CPUs");
        }
        if (usable.size() == 1) {
            return whole(topology, "the host has one chiplet");
        }
        int needed = chipletsFor(usable, topology.allowed(), cores);
        ChipletLeases leases;
        try {
            leases = ChipletLeases.open(leaseDir, usable);
        }
        catch (RuntimeException e) {
            return split(topology, usable, needed, executorId, "lease directory " + leaseDir + " not usable (" + e.getMessage() + ")");
        }
        try {
            ChipletLeases.LeaseSet set = leases.acquire(needed);
            String what = set.leases().stream().map(lease -> lease.describe()).collect(Collectors.joining(", "));
            return new HostShare(confine(topology, set.chiplets()), false, "leased " + what + " in " + leases.directory(), () -> {
                try (leases; set) {
                    // Both released: the set first, then the directory.
                }
            });
        }
        catch (RuntimeException e) {
            leases.close();
            return split(topology, usable, needed, executorId, "leases in " + leaseDir + " failed (" + e.getMessage() + ")");
        }
    }

    private static HostShare split(Topology topology, List<Chiplet> usable, int needed, String executorId, String why)
    {
        List<Chiplet> chosen = deterministic(usable, needed, executorId);
        return new HostShare(confine(topology, chosen), false, "chiplets " + chosen.stream().map(Chiplet::id).toList()
                + " by executor id " + executorId + ": " + why, () -> {});
    }

    /** Chiplets holding a CPU the process may use, by id. */
    static List<Chiplet> usable(Topology topology)
    {
        return topology.chiplets().stream()
                .filter(chiplet -> chiplet.cpus().intersects(topology.allowed()))
                .sorted(Comparator.comparingInt(Chiplet::id))
                .toList();
    }

    /** Enough chiplets for {@code cores} task slots, counting each by its smallest usable size; at least one. */
    static int chipletsFor(List<Chiplet> usable, CpuSet allowed, int cores)
    {
        int smallest = usable.stream().mapToInt(chiplet -> chiplet.cpus().intersect(allowed).size()).min().orElse(1);
        int needed = (cores + smallest - 1) / smallest;
        return Math.max(1, Math.min(usable.size(), needed));
    }

    /**
     * {@code needed} consecutive chiplets (wrapping) starting at {@code id x needed}: executors numbered in sequence,
     * as every cluster manager numbers them, take different chiplets until the host is full. Ids that are not
     * numbers start at their hash.
     */
    static List<Chiplet> deterministic(List<Chiplet> usable, int needed, String executorId)
    {
        long start;
        try {
            start = Long.parseLong(executorId.trim()) * needed;
        }
        catch (NumberFormatException e) {
            start = executorId.hashCode();
        }
        List<Chiplet> chosen = new ArrayList<>();
        for (int k = 0; k < needed; k++) {
            chosen.add(usable.get((int) Math.floorMod(start + k, (long) usable.size())));
        }
        return chosen;
    }

    /** {@code topology} with only {@code chiplets} and their CPUs allowed. */
    static Topology confine(Topology topology, List<Chiplet> chiplets)
    {
        CpuSet cpus = CpuSet.empty();
        for (Chiplet chiplet : chiplets) {
            cpus = cpus.union(chiplet.cpus());
        }
        List<Integer> ids = chiplets.stream().map(Chiplet::id).toList();
        return new Topology(
                topology.source(),
                topology.present(),
                topology.online(),
                topology.allowed().intersect(cpus),
                topology.packages(),
                topology.dies(),
                topology.clusters(),
                topology.numaNodes(),
                topology.caches(),
                topology.cores(),
                topology.coreKinds(),
                topology.chiplets().stream().filter(chiplet -> ids.contains(chiplet.id())).toList(),
                topology.unknowns());
    }

    @Override
    public void close()
    {
        try {
            release.close();
        }
        catch (Exception e) {
            throw new IllegalStateException("cannot release the chiplet leases: " + e.getMessage(), e);
        }
    }
}
