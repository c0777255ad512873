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
public final class HostDivision
{
    private HostDivision() {}

    /**
     * Where the JVMs of a host lease chiplets unless told otherwise: a fixed host path, not {@code java.io.tmpdir}, which
     * YARN (and Spark on Kubernetes) make private to each container, so that leases under it coordinated nothing and
     * every executor of a node leased chiplet 0. {@code /tmp} itself is one directory for every container YARN starts.
     */
    public static final String DEFAULT_LEASE_DIRECTORY = "/tmp/chiplet-leases";

    /** Whether a JVM with {@code cores} cores uses all of {@code share}: its cores cover every CPU of it, or it has one chiplet. */
    public static boolean ownsHost(PlacementDomain share, int cores)
    {
        requireNonNull(share, "share is null");
        return cores >= share.shareCpus().size() || share.chiplets().size() <= 1;
    }

    /**
     * Whether a JVM with {@code cores} cores should bind its whole process to one leased chiplet rather than pin its
     * workers within its share: it does not cover every CPU of the share, and its cores fit the share's smallest chiplet,
     * so whichever chiplet it leases holds all of them. Spark's {@code spark.chiplet.mode=auto} takes executor mode then.
     */
    public static boolean fitsOneChiplet(PlacementDomain share, int cores)
    {
        requireNonNull(share, "share is null");
        return cores < share.shareCpus().size() && cores <= share.smallestChipletCpus();
    }

    /**
     * What one whole process placed as a single worker (Spark's {@code spark.chiplet.mode=executor}, {@code chiplet exec
     * --policy}) is bound to under {@code policy}'s {@link Policy#processBinding()}, on {@code share}: pass the share
     * narrowed to the chiplet the process leased. One rule for every policy and every adapter, since the process is one
     * worker whose threads are all its tasks:
     * <ul>
     * <li>{@code wim}: nothing ({@link WorkerPlacement#unbound}): no lease, no CPUs, no memory policy, as {@code wim}
     *     means everywhere.</li>
     * <li>every other policy: the whole chiplet it holds (the share's CPUs on it) and, under {@code memory}'s rule, the
     *     chiplet's memory node: what {@code chiplet plan --policy wicp-local --workers 1} prints for worker 0. The
     *     chiplet policies pin whole chiplets anyway; {@code wic}'s one core would starve an executor running several
     *     tasks at once, and {@code win}'s whole node would overlap the chiplets other executors on the host leased, so
     *     both take the chiplet, the smallest unit that holds such a process.</li>
     * </ul>
     * A process whose target {@linkplain WorkerPlacement#bindsAnything binds nothing} leases nothing either.
     */
    public static WorkerPlacement processPlacement(PlacementDomain share, Policy policy, MemoryBinding memory)
    {
        requireNonNull(share, "share is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(memory, "memory is null");
        return switch (policy.processBinding()) {
            case NOTHING -> WorkerPlacement.unbound(0);
            case LEASED_CHIPLET -> PlacementPlanner.targets(share, Policy.WICP_LOCAL, 1, memory).target(0);
        };
    }

    /** {@link #processTarget}'s rule for {@code policy} in words, for the one line a runner logs. */
    public static String processRule(Policy policy)
    {
        requireNonNull(policy, "policy is null");
        return switch (policy.processBinding()) {
            case NOTHING -> "policy " + policy.cliName() + " binds nothing: the process leases no chiplet and keeps its CPUs and memory policy";
            case LEASED_CHIPLET -> "policy " + policy.cliName() + " binds a whole process to its leased chiplet" + switch (policy.unit()) {
                case CORE -> " (one core per process would starve its tasks)";
                case NUMA_NODE -> " (a whole node would overlap other processes' chiplets)";
                case MACHINE, CHIPLET -> "";
            };
        };
    }

    /** Enough chiplets of {@code share} for {@code cores} busy threads, counting each by the smallest one's CPUs in the share; 1 to all. */
    public static int chipletsFor(PlacementDomain share, int cores)
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
    public static LeaseCount chipletsRequested(PlacementDomain share, OptionalInt requested)
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

    private static int atMostAll(PlacementDomain share, int chiplets)
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
    public static PlacementDomain bySequenceNumber(PlacementDomain share, int needed, String id)
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
