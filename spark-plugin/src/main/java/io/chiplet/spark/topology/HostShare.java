package io.chiplet.spark.topology;

import io.chiplet.affinity.ChipletLeases;
import io.chiplet.placement.HostShares;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;

import java.util.List;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The chiplets of its host one executor places its tasks on ({@code spark.chiplet.mode=task}). An executor with
 * at least as many cores as the host has usable CPUs owns the host and uses every chiplet. Otherwise (several
 * executors per host: YARN, standalone without cpusets, local-cluster) it takes just enough chiplets for its own
 * cores: host-wide leases in {@code spark.chiplet.leaseDir} through {@link ChipletLeases}, so executors of any
 * application on the host take different chiplets while any is free, and, when the lease directory cannot be used,
 * a deterministic split by executor id, so executors numbered in sequence still land on different chiplets. The
 * decisions are core's ({@link HostShares}); this adds the leases and what to log.
 *
 * @param topology the executor's machine confined to its chiplets (its allowed CPUs are theirs)
 * @param ownsHost whether the executor uses every chiplet of the host
 * @param description what the executor got, for its log line ("leased chiplet 1 (CPUs [1]): exclusive")
 */
public record HostShare(Topology topology, boolean ownsHost, String description, AutoCloseable release)
        implements AutoCloseable
{
    public HostShare
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(description, "description is null");
        requireNonNull(release, "release is null");
    }

    /** The whole host: one executor owning it, as local mode and one-executor-per-host clusters have it. */
    public static HostShare whole(Topology topology, String why)
    {
        return new HostShare(topology, true, "every chiplet of the host (" + why + ")", () -> {});
    }

    /**
     * Claims the chiplets for an executor of {@code cores} cores.
     *
     * @param leaseDir the host-wide lease directory
     */
    public static HostShare claim(Topology topology, int cores, String executorId, java.nio.file.Path leaseDir)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(leaseDir, "leaseDir is null");
        if (HostShares.ownsHost(topology, cores)) {
            return whole(topology, cores >= topology.allowed().size()
                    ? "its " + cores + " cores cover the " + topology.allowed().size() + " usable CPUs"
                    : "the host has one chiplet");
        }
        List<Chiplet> usable = HostShares.usableChiplets(topology);
        int needed = HostShares.chipletsFor(topology, cores);
        ChipletLeases leases;
        try {
            leases = ChipletLeases.open(leaseDir, usable);
        }
        catch (RuntimeException e) {
            return split(topology, needed, executorId, "lease directory " + leaseDir + " not usable (" + e.getMessage() + ")");
        }
        try {
            ChipletLeases.LeaseSet set = leases.acquire(needed);
            String what = set.leases().stream().map(lease -> lease.describe()).collect(Collectors.joining(", "));
            return new HostShare(HostShares.confine(topology, set.chiplets()), false, "leased " + what + " in " + leases.directory(), () -> {
                try (leases; set) {
                    // Both released: the set first, then the directory.
                }
            });
        }
        catch (RuntimeException e) {
            leases.close();
            return split(topology, needed, executorId, "leases in " + leaseDir + " failed (" + e.getMessage() + ")");
        }
    }

    private static HostShare split(Topology topology, int needed, String executorId, String why)
    {
        List<Chiplet> chosen = HostShares.bySequenceNumber(topology, needed, executorId);
        return new HostShare(HostShares.confine(topology, chosen), false, "chiplets " + chosen.stream().map(Chiplet::id).toList()
                + " by executor id " + executorId + ": " + why, () -> {});
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
