package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The part of a host one process places its workers on, computed once: the usable chiplets (those holding at least
 * one of its allowed, online CPUs; the one definition of "usable", {@link UsableChiplets}), narrowed to the chiplets
 * it leased where it shares the host with other JVMs, and within them only the allowed CPUs. Every plan, lease, bind
 * and adaptive step of the process works inside it; when the cgroup cpuset changes, {@link #rescopedTo} gives the
 * share to place on from then on. Pure.
 *
 * @param topology the whole machine as discovered
 * @param shareCpus the CPUs of the share: allowed, online and on {@code chiplets}; never empty
 * @param chiplets the chiplets of the share, by id; each holds at least one CPU of {@code shareCpus}; empty only
 *        when the topology has no chiplets
 */
public record PlacementDomain(Topology topology, CpuSet shareCpus, List<Chiplet> chiplets)
{
    public PlacementDomain
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(shareCpus, "shareCpus is null");
        chiplets = List.copyOf(chiplets);
        // A topology without chiplets (no cache information) has no chiplet to hold the CPUs: the share is its CPUs alone.
        if (shareCpus.isEmpty() || chiplets.isEmpty() && !topology.chiplets().isEmpty()) {
            throw new IllegalArgumentException("no chiplet of " + topology.source() + " holds any of the CPUs [" + shareCpus.toList() + "]");
        }
    }

    /** The whole of what the topology says this process may use ({@link Topology#allowed()}). */
    public static PlacementDomain of(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        return of(topology, topology.allowed());
    }

    /**
     * The share of a process that may use {@code processCpus} on {@code topology}: the usable chiplets of the CPUs both
     * allow. The one place "usable ∩ this process's CPUs" is made, for every runner: the topology may describe another
     * machine (a snapshot, {@code --fs-root}) or be narrower than the process (its affinity mask), so only CPUs both
     * name are handed out.
     *
     * @param processCpus the CPUs this process may use (live: {@code PinnableCpusTracker.readLive()} or the binder's
     *        {@code PinnableCpus})
     * @throws NoUsableChipletException naming the topology's source and both CPU sets when no chiplet holds one of them
     */
    public static PlacementDomain ofProcess(Topology topology, CpuSet processCpus)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(processCpus, "processCpus is null");
        try {
            return of(topology, topology.allowed().intersect(processCpus));
        }
        catch (IllegalArgumentException e) {
            throw new NoUsableChipletException(topology, processCpus, e);
        }
    }

    /**
     * The usable chiplets of {@code allowedCpus} and, of those CPUs, the online ones on them.
     *
     * @param allowedCpus the CPUs this process may use (e.g. {@code PinnableCpus.allowed()} intersected with the topology's)
     * @throws IllegalArgumentException when no chiplet holds one of them
     */
    public static PlacementDomain of(Topology topology, CpuSet allowedCpus)
    {
        UsableChiplets usable = UsableChiplets.of(topology, allowedCpus);
        CpuSet onChiplets = usable.chiplets().stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
        // A topology without chiplets (no cache information) is one unit: every allowed online CPU.
        CpuSet cpus = topology.chiplets().isEmpty() ? usable.allowed() : usable.allowed().intersect(onChiplets);
        return new PlacementDomain(topology, cpus, usable.chiplets());
    }

    /**
     * This share narrowed to {@code leased} chiplets (a host-wide lease), within the CPUs it has now.
     *
     * @throws IllegalArgumentException when none of {@code leased} is in this share
     */
    public PlacementDomain leased(Collection<Chiplet> leased)
    {
        requireNonNull(leased, "leased is null");
        CpuSet cpus = leased.stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
        return of(topology, shareCpus.intersect(cpus));
    }

    /**
     * This share without the chiplets {@code ids} (held by processes whose leases this one cannot see); empty when
     * nothing would be left.
     */
    public Optional<PlacementDomain> excluding(Collection<Integer> ids)
    {
        requireNonNull(ids, "ids is null");
        CpuSet excluded = chiplets.stream().filter(chiplet -> ids.contains(chiplet.id())).map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
        CpuSet rest = shareCpus.minus(excluded);
        return rest.isEmpty() ? Optional.empty() : Optional.of(of(topology, rest));
    }

    /**
     * Where to place after the process's allowed CPUs changed to {@code nowAllowed}: this share's chiplets within
     * them; when none of them is left, the usable chiplets of {@code nowAllowed} ({@link CpusetAlignment#rescope}).
     *
     * @throws IllegalArgumentException when no chiplet holds any of {@code nowAllowed}
     */
    public PlacementDomain rescopedTo(CpuSet nowAllowed)
    {
        requireNonNull(nowAllowed, "nowAllowed is null");
        return of(topology, CpusetAlignment.rescope(topology, shareCpus, nowAllowed.intersect(topology.online())));
    }

    /**
     * The widest an adaptive spread can grow on this share: its chiplets, or 1 where the topology has none (the share
     * is then one unit). The spreads {@link WorkerPlacements#withSpreads} places by are clamped to {@code 1..maxSpread()}.
     */
    public int maxSpread()
    {
        return Math.max(1, chiplets.size());
    }

    /** The share's chiplets as the planner and the adaptive locator see them. */
    UsableChiplets usableChiplets()
    {
        return UsableChiplets.of(topology, shareCpus);
    }

    /** The share's CPUs on the chiplet that has the fewest of them; 0 when the share has no chiplet. */
    public int smallestChipletCpus()
    {
        return usableChiplets().smallestCpuCount();
    }

    /**
     * The share's CPUs on chiplet {@code id}: what a worker pinned to that chiplet runs on.
     *
     * @throws IllegalArgumentException when the chiplet is not in this share
     */
    public CpuSet cpusOf(int chipletId)
    {
        return chiplets.stream().filter(chiplet -> chiplet.id() == chipletId).findFirst()
                .map(chiplet -> chiplet.cpus().intersect(shareCpus))
                .orElseThrow(() -> new IllegalArgumentException("chiplet " + chipletId + " is not in this share (chiplets " + ids() + ")"));
    }

    public List<Integer> ids()
    {
        return chiplets.stream().map(Chiplet::id).toList();
    }

    /** The nodes to bind the whole share's memory to (a process on several leased chiplets): each chiplet's, under {@code memory}'s rule. */
    public SortedSet<Integer> memoryNodesToBind(MemoryBinding memory)
    {
        requireNonNull(memory, "memory is null");
        SortedSet<Integer> nodes = new TreeSet<>();
        for (Chiplet chiplet : chiplets) {
            OptionalInt node = memory.nodeFor(chiplet.id(), chiplet.numaNode());
            node.ifPresent(nodes::add);
        }
        return nodes;
    }

    /** How the share lies on the chiplets: whole chiplets or pieces, for the start-up log. */
    public CpusetAlignment alignment()
    {
        return CpusetAlignment.of(topology, shareCpus);
    }
}
