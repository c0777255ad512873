package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * How several JVMs on one host (Spark executors, Trino workers) divide its chiplets when each has fewer cores than
 * the host has usable CPUs: how many chiplets one needs, which ones it takes when they cannot be leased host-wide
 * ({@code io.chiplet.affinity.ChipletLeases} does that), and the topology confined to its share. Pure.
 */
public final class HostShares
{
    private HostShares() {}

    /** Whether a JVM with {@code cores} cores uses all of {@code share}: its cores cover every CPU of it, or it has one chiplet. */
    public static boolean ownsHost(NodeShare share, int cores)
    {
        requireNonNull(share, "share is null");
        return cores >= share.shareCpus().size() || share.chiplets().size() <= 1;
    }

    /** Enough chiplets of {@code share} for {@code cores} busy threads, counting each by the smallest one's CPUs in the share; 1 to all. */
    public static int chipletsFor(NodeShare share, int cores)
    {
        requireNonNull(share, "share is null");
        UsableChiplets usable = share.usableChiplets();
        int smallest = usable.smallestCpuCount();
        if (usable.isEmpty() || smallest == 0) {
            throw new IllegalArgumentException("no chiplet holds a CPU this process may use (" + share.topology().source() + ")");
        }
        return Math.min(usable.size(), (Math.max(1, cores) + smallest - 1) / smallest);
    }

    /**
     * {@code needed} chiplets of {@code share} by the JVM's sequence number ({@link #bySequenceNumber(Topology, int, String)}),
     * as the share narrowed to them: for when host-wide leases cannot be had.
     */
    public static NodeShare bySequenceNumber(NodeShare share, int needed, String id)
    {
        requireNonNull(share, "share is null");
        Topology scoped = share.topology().restrictedTo(share.shareCpus(), share.chiplets(), share.topology().unknowns());
        return share.leased(bySequenceNumber(scoped, needed, id));
    }

    // #24 phase B: remove the Topology forms below once the plugins use the NodeShare forms above.

    /** Whether a JVM with {@code cores} cores uses the whole host: its cores cover every usable CPU, or there is one chiplet. */
    public static boolean ownsHost(Topology topology, int cores)
    {
        requireNonNull(topology, "topology is null");
        return cores >= topology.allowed().size() || usableChiplets(topology).size() <= 1;
    }

    /** Chiplets holding a CPU the process may use, by id ({@link UsableChiplets}). */
    public static List<Chiplet> usableChiplets(Topology topology)
    {
        return UsableChiplets.of(topology).chiplets();
    }

    /** The usable CPUs of the smallest usable chiplet; 0 when none is usable. */
    public static int smallestChipletCpus(Topology topology)
    {
        return UsableChiplets.of(topology).smallestCpuCount();
    }

    /** Enough chiplets for {@code cores} busy threads, counting each chiplet by the smallest one's usable CPUs; 1 to all. */
    public static int chipletsFor(Topology topology, int cores)
    {
        int usable = usableChiplets(topology).size();
        if (usable == 0) {
            throw new IllegalArgumentException("no chiplet holds a CPU this process may use (" + topology.source() + ")");
        }
        int smallest = smallestChipletCpus(topology);
        int needed = (Math.max(1, cores) + smallest - 1) / smallest;
        return Math.min(usable, needed);
    }

    /**
     * {@code needed} consecutive usable chiplets (wrapping) from {@code id x needed} on: JVMs numbered in sequence, as
     * cluster managers number executors, take different chiplets until the host is full. An id that is not a number
     * starts at its hash. For when host-wide leases cannot be had.
     */
    public static List<Chiplet> bySequenceNumber(Topology topology, int needed, String id)
    {
        requireNonNull(id, "id is null");
        List<Chiplet> usable = usableChiplets(topology);
        if (needed < 1 || needed > usable.size()) {
            throw new IllegalArgumentException("expected 1 to " + usable.size() + " chiplets but asked for " + needed);
        }
        long start;
        try {
            start = Long.parseLong(id.trim()) * needed;
        }
        catch (NumberFormatException e) {
            start = id.hashCode();
        }
        List<Chiplet> chosen = new ArrayList<>(needed);
        for (int k = 0; k < needed; k++) {
            chosen.add(usable.get((int) Math.floorMod(start + k, (long) usable.size())));
        }
        return chosen;
    }

    /** {@code topology} with only {@code chiplets} and, of the allowed CPUs, only theirs. */
    public static Topology confine(Topology topology, List<Chiplet> chiplets)
    {
        requireNonNull(topology, "topology is null");
        CpuSet cpus = chiplets.stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
        return UsableChiplets.of(topology, topology.allowed().intersect(cpus)).restricted(topology.unknowns());
    }
}
