package io.chiplet.placement;

import io.chiplet.topology.Chiplet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

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
        return atMostAll(share, (Math.max(1, cores) + smallest - 1) / smallest);
    }

    /**
     * How many chiplets of {@code share} a JVM leases when its settings ask for {@code requested} (empty: all of
     * them): the share's chiplets are the most there are, so a larger request is capped to them (the rule
     * {@link #chipletsFor} applies to a core count), and the result says so for the operator.
     *
     * @throws IllegalArgumentException when {@code requested} is below 1 or the share holds no chiplet
     */
    public static LeaseCount chipletsRequested(NodeShare share, OptionalInt requested)
    {
        requireNonNull(share, "share is null");
        requireNonNull(requested, "requested is null");
        int all = share.chiplets().size();
        if (all == 0) {
            throw new IllegalArgumentException("no chiplet holds a CPU this process may use (" + share.topology().source() + ")");
        }
        if (requested.isEmpty()) {
            return new LeaseCount(all, Optional.empty());
        }
        int asked = requested.getAsInt();
        if (asked < 1) {
            throw new IllegalArgumentException("expected at least 1 chiplet but asked for " + asked);
        }
        int chiplets = atMostAll(share, asked);
        return new LeaseCount(chiplets, chiplets < asked
                ? Optional.of("asked for " + asked + " chiplets but this process may use " + all + ": leasing " + all)
                : Optional.empty());
    }

    /**
     * How many chiplets a JVM leases.
     *
     * @param chiplets 1 to the share's chiplets
     * @param capped why fewer than asked for, where a request was capped; empty otherwise
     */
    public record LeaseCount(int chiplets, Optional<String> capped)
    {
        public LeaseCount
        {
            if (chiplets < 1) {
                throw new IllegalArgumentException("chiplets must be at least 1: " + chiplets);
            }
            requireNonNull(capped, "capped is null");
        }
    }

    private static int atMostAll(NodeShare share, int chiplets)
    {
        return Math.min(share.chiplets().size(), chiplets);
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
