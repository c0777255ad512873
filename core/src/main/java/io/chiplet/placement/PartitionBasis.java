package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * What partition sizing needs to know of the chiplets a job runs on: one host's usable chiplets, one executor's
 * leased chiplet, or a whole cluster's executors combined. Executors send it to the driver as plain numbers.
 *
 * @param chiplets usable chiplets (holding at least one allowed, online CPU)
 * @param cores usable physical cores: the task slots the advice counts (SMT siblings share a core's caches)
 * @param coreL3Bytes the smallest L3 share of one core (a chiplet's L3 over all its cores, allowed or not, since
 *         the others still use it); 0 when no chiplet reports an L3 size
 * @param chipletL3Bytes the smallest usable chiplet's L3; 0 when none reports one
 */
public record PartitionBasis(int chiplets, int cores, long coreL3Bytes, long chipletL3Bytes)
{
    public PartitionBasis
    {
        if (chiplets < 1) {
            throw new IllegalArgumentException("chiplets must be at least 1: " + chiplets);
        }
        if (cores < chiplets) {
            throw new IllegalArgumentException("expected at least one core per chiplet but found " + cores + " cores on " + chiplets + " chiplets");
        }
        if (coreL3Bytes < 0 || chipletL3Bytes < 0) {
            throw new IllegalArgumentException("L3 sizes must not be negative: " + coreL3Bytes + ", " + chipletL3Bytes);
        }
    }

    /**
     * The chiplets of {@code topology} this process may use, as {@link UsableChiplets} finds them.
     *
     * @throws IllegalArgumentException when none of {@code allowed} is online in a chiplet
     */
    public static PartitionBasis of(Topology topology, CpuSet allowed)
    {
        UsableTopology usable = UsableTopology.of(topology, allowed);
        long coreL3 = 0;
        long chipletL3 = 0;
        for (UsableTopology.UsableChiplet chiplet : usable.localOrder()) {
            long l3 = chiplet.chiplet().l3Bytes();
            if (l3 > 0) {
                coreL3 = smallestKnown(coreL3, l3 / chiplet.physicalCores());
                chipletL3 = smallestKnown(chipletL3, l3);
            }
        }
        return new PartitionBasis(usable.localOrder().size(), usable.physicalCores(), coreL3, chipletL3);
    }

    /** Several hosts (or leased chiplets) as one: chiplets and cores add up, the smallest known L3 figures hold. */
    public static PartitionBasis combine(Collection<PartitionBasis> parts)
    {
        requireNonNull(parts, "parts is null");
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to combine");
        }
        int chiplets = 0;
        int cores = 0;
        long coreL3 = 0;
        long chipletL3 = 0;
        for (PartitionBasis part : parts) {
            chiplets = Math.addExact(chiplets, part.chiplets);
            cores = Math.addExact(cores, part.cores);
            coreL3 = smallestKnown(coreL3, part.coreL3Bytes);
            chipletL3 = smallestKnown(chipletL3, part.chipletL3Bytes);
        }
        return new PartitionBasis(chiplets, cores, coreL3, chipletL3);
    }

    /**
     * The chiplets a whole cluster's executors work on, as partition sizing counts them: an executor that holds chiplets
     * of its own (a leased chiplet, a share of its host) counts them, however many others run on its host; executors
     * that work on their host's chiplets with no chiplet of their own (one owning the host, or one that leased nothing
     * under {@code wim}) count that host once, however many of them run there. Where such executors of one host
     * report different chiplets (different allowed CPUs), the widest report stands for the host (most chiplets, then
     * most cores): each of them runs on at least that much of it.
     *
     * @throws IllegalArgumentException when {@code executors} is empty
     */
    public static PartitionBasis ofCluster(Collection<ExecutorBasis> executors)
    {
        requireNonNull(executors, "executors is null");
        Map<String, PartitionBasis> hosts = new TreeMap<>();
        List<PartitionBasis> parts = new ArrayList<>();
        for (ExecutorBasis executor : executors) {
            if (executor.ownChiplets()) {
                parts.add(executor.basis());
            }
            else {
                hosts.merge(executor.host(), executor.basis(), PartitionBasis::wider);
            }
        }
        parts.addAll(hosts.values());
        return combine(parts);
    }

    /**
     * One executor's chiplets as {@link #ofCluster} counts them.
     *
     * @param host the host it runs on, as the engine names it
     * @param ownChiplets whether it holds chiplets no other executor of its host works on (a leased chiplet, a share
     *         of the host); false when it works on its host's chiplets with every other such executor there
     * @param basis the chiplets it works on
     */
    public record ExecutorBasis(String host, boolean ownChiplets, PartitionBasis basis)
    {
        public ExecutorBasis
        {
            requireNonNull(host, "host is null");
            requireNonNull(basis, "basis is null");
        }
    }

    private static PartitionBasis wider(PartitionBasis a, PartitionBasis b)
    {
        if (a.chiplets != b.chiplets) {
            return a.chiplets > b.chiplets ? a : b;
        }
        return b.cores > a.cores ? b : a;
    }

    /**
     * What skew hints across several executors are judged by: the widest executor's chiplets (a hint spreads a task
     * over at most as many chiplets as the largest executor has; 1 with none) and the smallest chiplet L3 any reports,
     * where one that knows none (0) makes it 0: a consolidate hint must hold on every executor a task may run on.
     */
    public static SkewHintBasis forSkewHints(Collection<PartitionBasis> executors)
    {
        requireNonNull(executors, "executors is null");
        int widest = executors.stream().mapToInt(PartitionBasis::chiplets).max().orElse(1);
        long l3 = executors.stream().mapToLong(PartitionBasis::chipletL3Bytes).min().orElse(0);
        return new SkewHintBasis(widest, l3);
    }

    /**
     * @param widestChiplets the most chiplets one executor has: the widest a skew hint spreads a task
     * @param chipletL3Bytes the smallest chiplet L3 over the executors; 0 when unknown for any
     */
    public record SkewHintBasis(int widestChiplets, long chipletL3Bytes)
    {
        public SkewHintBasis
        {
            if (widestChiplets < 1 || chipletL3Bytes < 0) {
                throw new IllegalArgumentException("expected at least 1 chiplet and an L3 size of 0 or more but was " + widestChiplets + ", " + chipletL3Bytes);
            }
        }
    }

    /** The smaller of two sizes where 0 means unknown. */
    private static long smallestKnown(long a, long b)
    {
        if (a == 0) {
            return b;
        }
        return b == 0 ? a : Math.min(a, b);
    }
}
