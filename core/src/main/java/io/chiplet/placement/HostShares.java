package io.chiplet.placement;

import io.chiplet.topology.Chiplet;

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

    /**
     * Whether a JVM with {@code cores} cores should bind its whole process to one leased chiplet rather than pin its
     * workers within its share: it does not cover every CPU of the share, and its cores fit the share's smallest chiplet,
     * so whichever chiplet it leases holds all of them. Spark's {@code spark.chiplet.mode=auto} takes executor mode then.
     */
    public static boolean fitsOneChiplet(NodeShare share, int cores)
    {
        requireNonNull(share, "share is null");
        return cores < share.shareCpus().size() && cores <= share.smallestChipletCpus();
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
     * {@code needed} consecutive chiplets of {@code share} (wrapping) from {@code id x needed} on, as the share narrowed
     * to them: JVMs numbered in sequence, as cluster managers number executors, take different chiplets until the host
     * is full. An id that is not a number starts at its hash. For when host-wide leases cannot be had.
     *
     * @throws IllegalArgumentException when {@code needed} is not 1 to the share's chiplets
     */
    public static NodeShare bySequenceNumber(NodeShare share, int needed, String id)
    {
        requireNonNull(share, "share is null");
        requireNonNull(id, "id is null");
        List<Chiplet> usable = share.usableChiplets().chiplets();
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
        return share.leased(chosen);
    }
}
