package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Core;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The part of a topology a plan may use: chiplets with at least one allowed online CPU (the one definition of usable,
 * as {@link UsableChiplets} and {@link PlacementDomain}), each with its physical cores
 * reduced to their allowed SMT siblings. Every ordering the policies need is computed here once, from the model and
 * never from CPU numbers, so interleaved, sparse and partly offline numbering all work alike.
 */
final class UsableTopology
{
    /**
     * One usable chiplet; {@code cores[k]} holds core k's allowed CPUs, lowest first; cores most performant first.
     * {@code physicalCores} counts all its cores, allowed or not, since the others still share its L3. {@code packageRank}
     * is its package's rank in package order, told apart by the package itself (its CPUs), not its id, since several
     * packages without an id (-1) are still several; -1 when no package lists its CPUs.
     */
    record UsableChiplet(Chiplet chiplet, int[][] cores, int physicalCores, int packageRank)
    {
        int id()
        {
            return chiplet.id();
        }


        int numaNode()
        {
            return chiplet.numaNode();
        }

        int cpuCount()
        {
            int count = 0;
            for (int[] core : cores) {
                count += core.length;
            }
            return count;
        }

        /** The chiplet's CPUs as slots: every core's first thread, then every core's second thread, and so on. */
        int[] cpuSlots()
        {
            int[] slots = new int[cpuCount()];
            int next = 0;
            for (int thread = 0; next < slots.length; thread++) {
                for (int[] core : cores) {
                    if (thread < core.length) {
                        slots[next++] = core[thread];
                    }
                }
            }
            return slots;
        }
    }

    private final CpuSet usable;
    private final List<UsableChiplet> localOrder;
    private final List<UsableChiplet> spreadOrder;
    private final List<NumaNode> nodes;

    private UsableTopology(CpuSet usable, List<UsableChiplet> localOrder, List<UsableChiplet> spreadOrder, List<NumaNode> nodes)
    {
        this.usable = usable;
        this.localOrder = localOrder;
        this.spreadOrder = spreadOrder;
        this.nodes = nodes;
    }

    static UsableTopology of(Topology topology, CpuSet allowed)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(allowed, "allowed is null");
        CpuSet usable = allowed.intersect(topology.online());
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("none of the allowed CPUs [" + allowed + "] is online (online: " + topology.online() + ")");
        }
        // Plain BitSet walks here, not streams: this runs for every plan, and plans for 1024 workers must stay cheap.
        int maxCpu = topology.online().last() + 1;
        int[] kindRank = new int[maxCpu];
        for (CoreKind kind : topology.coreKinds()) {
            BitSet bits = kind.cpus().toBitSet();
            for (int cpu = bits.nextSetBit(0); cpu >= 0 && cpu < maxCpu; cpu = bits.nextSetBit(cpu + 1)) {
                kindRank[cpu] = kind.rank();
            }
        }
        int[] chipletIndex = new int[maxCpu];
        Arrays.fill(chipletIndex, -1);
        List<Chiplet> chiplets = topology.chiplets().isEmpty() ? List.of(wholeMachine(topology)) : topology.chiplets();
        for (int i = 0; i < chiplets.size(); i++) {
            BitSet bits = chiplets.get(i).cpus().toBitSet();
            for (int cpu = bits.nextSetBit(0); cpu >= 0 && cpu < maxCpu; cpu = bits.nextSetBit(cpu + 1)) {
                chipletIndex[cpu] = i;
            }
        }

        List<List<int[]>> coresByChiplet = new ArrayList<>();
        for (int i = 0; i < chiplets.size(); i++) {
            coresByChiplet.add(new ArrayList<>());
        }
        int[] allCores = new int[chiplets.size()];
        BitSet usableBits = usable.toBitSet();
        BitSet uncovered = usable.toBitSet();
        for (Core core : topology.cores()) {
            BitSet bits = core.cpus().toBitSet();
            uncovered.andNot(bits);
            int first = bits.nextSetBit(0);
            if (first >= 0 && first < maxCpu && chipletIndex[first] >= 0) {
                allCores[chipletIndex[first]]++;
            }
            bits.and(usableBits);
            int[] cpus = toArray(bits);
            if (cpus.length > 0 && chipletIndex[cpus[0]] >= 0) {
                coresByChiplet.get(chipletIndex[cpus[0]]).add(cpus);
            }
        }
        // A source that reports no core for a CPU: treat that CPU as a core of its own rather than lose it.
        for (int cpu = uncovered.nextSetBit(0); cpu >= 0 && cpu < maxCpu; cpu = uncovered.nextSetBit(cpu + 1)) {
            if (chipletIndex[cpu] >= 0) {
                coresByChiplet.get(chipletIndex[cpu]).add(new int[] {cpu});
            }
        }

        List<UsableChiplet> local = new ArrayList<>();
        for (int i = 0; i < chiplets.size(); i++) {
            List<int[]> cores = coresByChiplet.get(i);
            if (cores.isEmpty()) {
                continue;
            }
            cores.sort(Comparator.<int[]>comparingInt(core -> kindRank[core[0]]).thenComparingInt(core -> core[0]));
            local.add(new UsableChiplet(chiplets.get(i), cores.toArray(int[][]::new), Math.max(allCores[i], cores.size()), packageRank(topology, chiplets.get(i))));
        }
        if (local.isEmpty()) {
            throw new IllegalArgumentException("no chiplet holds any of the allowed CPUs [" + usable + "]");
        }
        local.sort(Comparator.<UsableChiplet>comparingInt(UsableChiplet::packageRank)
                .thenComparingInt(chiplet -> chiplet.chiplet().cpus().first()));

        List<NumaNode> nodes = topology.numaNodes().stream()
                .filter(node -> node.cpus().intersects(usable))
                .sorted(Comparator.comparingInt(NumaNode::id))
                .toList();
        return new UsableTopology(usable, List.copyOf(local), spreadOrder(local), nodes);
    }

    /**
     * Round-robin over packages, and inside a package round-robin over its NUMA nodes, so that consecutive workers
     * land on different memory controllers and the aggregate L3 grows as fast as possible.
     */
    private static List<UsableChiplet> spreadOrder(List<UsableChiplet> local)
    {
        List<List<UsableChiplet>> packages = new ArrayList<>();
        int currentPackage = Integer.MIN_VALUE;
        List<UsableChiplet> group = null;
        for (UsableChiplet chiplet : local) {
            if (group == null || chiplet.packageRank() != currentPackage) {
                group = new ArrayList<>();
                packages.add(group);
                currentPackage = chiplet.packageRank();
            }
            group.add(chiplet);
        }
        List<List<UsableChiplet>> perPackage = new ArrayList<>();
        for (List<UsableChiplet> chipletsOfPackage : packages) {
            List<List<UsableChiplet>> byNode = new ArrayList<>();
            chipletsOfPackage.stream()
                    .map(UsableChiplet::numaNode)
                    .distinct()
                    .sorted()
                    .forEach(node -> byNode.add(chipletsOfPackage.stream().filter(c -> c.numaNode() == node).toList()));
            perPackage.add(roundRobin(byNode));
        }
        return roundRobin(perPackage);
    }

    private static List<UsableChiplet> roundRobin(List<List<UsableChiplet>> lists)
    {
        List<UsableChiplet> result = new ArrayList<>();
        for (int round = 0; ; round++) {
            boolean any = false;
            for (List<UsableChiplet> list : lists) {
                if (round < list.size()) {
                    result.add(list.get(round));
                    any = true;
                }
            }
            if (!any) {
                return List.copyOf(result);
            }
        }
    }

    /** Packages ranked by id, then by first CPU (telling id-less ones apart); the rank of {@code chiplet}'s, or -1. */
    private static int packageRank(Topology topology, Chiplet chiplet)
    {
        return topology.packageOf(chiplet)
                .map(own -> (int) topology.packages().stream()
                        .filter(other -> !other.cpus().isEmpty())
                        .filter(other -> other.id() < own.id() || other.id() == own.id() && other.cpus().first() < own.cpus().first())
                        .count())
                .orElse(-1);
    }

    private static int[] toArray(BitSet bits)
    {
        int[] result = new int[bits.cardinality()];
        int next = 0;
        for (int cpu = bits.nextSetBit(0); cpu >= 0; cpu = bits.nextSetBit(cpu + 1)) {
            result[next++] = cpu;
        }
        return result;
    }

    private static Chiplet wholeMachine(Topology topology)
    {
        int node = topology.numaNodes().isEmpty() ? 0 : topology.numaNodes().get(0).id();
        long l3 = topology.cachesOfLevel(3).stream().mapToLong(cache -> cache.sizeBytes()).sum();
        return new Chiplet(0, 0, node, topology.online(), l3, ChipletBasis.PACKAGE);
    }

    CpuSet usable()
    {
        return usable;
    }

    /** Package by package, chiplets in CPU order inside a package: the order that fills one chiplet before the next. */
    List<UsableChiplet> localOrder()
    {
        return localOrder;
    }

    /** Alternating packages (and NUMA nodes inside a package): the order that puts consecutive workers far apart. */
    List<UsableChiplet> spreadOrder()
    {
        return spreadOrder;
    }

    /** NUMA nodes holding at least one usable CPU, by id. */
    List<NumaNode> nodes()
    {
        return nodes;
    }

    int physicalCores()
    {
        return localOrder.stream().mapToInt(chiplet -> chiplet.cores().length).sum();
    }
}
