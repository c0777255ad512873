package io.chiplet.spark.topology;

import io.chiplet.affinity.ChipletLease;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.binding.ChipletLock;
import io.chiplet.placement.HostDivision;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.topology.Topology;

import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The chiplets of its host one executor places its tasks on ({@code spark.chiplet.mode=task}). An executor with
 * at least as many cores as the host has usable CPUs owns the host and uses every chiplet. Otherwise (several
 * executors per host: YARN, standalone without cpusets, local-cluster) it takes just enough chiplets for its own
 * cores: host-wide leases in {@code spark.chiplet.leaseDir} through core's {@link ChipletLock}, so executors of any
 * application on the host take different chiplets while any is free, and, when the lease directory cannot be used,
 * a deterministic split by executor id, so executors numbered in sequence still land on different chiplets. The
 * decisions are core's ({@link HostDivision}); this adds the leases and what to log.
 *
 * @param topology the executor's machine confined to its chiplets (its allowed CPUs are theirs)
 * @param ownsHost whether the executor uses every chiplet of the host
 * @param description what the executor got, for its log line ("leased chiplet 1 (CPUs [1]): exclusive")
 */
public record ExecutorChiplets(Topology topology, boolean ownsHost, String description, AutoCloseable release)
        implements AutoCloseable
{
    public ExecutorChiplets
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(description, "description is null");
        requireNonNull(release, "release is null");
    }

    /** The whole host: one executor owning it, as local mode and one-executor-per-host clusters have it. */
    public static ExecutorChiplets whole(Topology topology, String why)
    {
        return new ExecutorChiplets(topology, true, "every chiplet of the host (" + why + ")", () -> {});
    }

    /**
     * Claims the chiplets for an executor of {@code cores} cores.
     *
     * @param leaseDir the host-wide lease directory
     * @param leaseCoordinator the driver's check that executors of this host see one lease directory
     */
    public static ExecutorChiplets claim(Topology topology, int cores, String executorId, java.nio.file.Path leaseDir, LeaseCoordinator leaseCoordinator)
    {
        requireNonNull(leaseCoordinator, "leaseCoordinator is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(leaseDir, "leaseDir is null");
        PlacementDomain share = PlacementDomain.of(topology);
        if (HostDivision.ownsHost(share, cores)) {
            return whole(topology, cores >= share.shareCpus().size()
                    ? "its " + cores + " cores cover the " + share.shareCpus().size() + " usable CPUs"
                    : "the host has one chiplet");
        }
        int needed = HostDivision.chipletsFor(share, cores);
        ChipletLock lock;
        try {
            // Leases only: the executor's task placement binds each task thread within the share.
            lock = ChipletLock.acquire(leaseDir, share, needed, MemoryBinding.off(topology), leaseCoordinator);
        }
        catch (java.io.UncheckedIOException e) {
            return split(share, needed, executorId, "lease directory " + leaseDir + " not usable (" + e.getMessage() + ")");
        }
        catch (RuntimeException e) {
            return split(share, needed, executorId, "leases in " + leaseDir + " failed (" + e.getMessage() + ")");
        }
        String what = lock.leases().stream().map(ChipletLease::describe).collect(Collectors.joining(", "));
        return new ExecutorChiplets(confined(lock.share()), false, "leased " + what + " in " + lock.directory() + coordination(lock), lock::close);
    }

    /** What the driver's check of the lease changed, for the executor's line; nothing where the directory is shared. */
    private static String coordination(ChipletLock lock)
    {
        LeaseVerdict verdict = lock.verdict();
        if (verdict.directoryShared()) {
            return "";
        }
        if (lock.sharedWithUnseenProcesses()) {
            return "; but executors " + verdict.unseenHolders() + " of this host hold every chiplet in a lease directory this one cannot see, so it shares "
                    + "with them: set spark.chiplet.leaseDir to a directory every executor of the host shares";
        }
        return "; executors " + verdict.unseenHolders() + " of this host lease in another directory, so the driver kept this one off their chiplets "
                + verdict.unseenChiplets();
    }

    private static ExecutorChiplets split(PlacementDomain share, int needed, String executorId, String why)
    {
        PlacementDomain chosen = HostDivision.bySequenceNumber(share, needed, executorId);
        return new ExecutorChiplets(confined(chosen), false, "chiplets " + chosen.ids()
                + " by executor id " + executorId + ": " + why, () -> {});
    }

    /** The machine as the executor's task placement sees it: only the share's CPUs and chiplets. */
    private static Topology confined(PlacementDomain share)
    {
        Topology topology = share.topology();
        return topology.restrictedTo(share.shareCpus(), share.chiplets(), topology.unknowns());
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
