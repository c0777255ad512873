package io.chiplet.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Derives chiplets (the locality domains placement works with) from the facts a reader found, the same way for
 * every source (sysfs, hwloc XML, oshi). Pure: facts in, chiplets out. The rules are those of
 * {@code ../shared/spec/topology-json.md} and {@code docs/topology.md}:
 * <ol>
 * <li>With L3 information, a chiplet is the online CPUs of one L3 instance (basis {@code l3}). When a NUMA node
 *     is smaller than the L3 (Intel SNC, AMD NPS with L3 spanning nodes) the L3 is split along node boundaries
 *     (basis {@code l3+numa}); a chiplet never crosses a package either.</li>
 * <li>Without L3 information: a NUMA node when some package holds several nodes (basis {@code numa}); else a
 *     cluster or die when they split packages into groups of several cores; else the package.</li>
 * <li>{@code virtualChipletCores > 0} splits every domain into groups of that many physical cores, SMT siblings
 *     kept together (basis {@code virtual}), for large monolithic L3 parts.</li>
 * </ol>
 * Chiplets partition the online CPUs and are numbered 0.. in order of their first CPU. A chiplet's NUMA node is
 * the node holding its CPUs (where memory tiers make nodes overlap, the first node by id that has CPUs), or -1
 * when no node lists them; its package is the id of the package holding it, -1 when that package has no id or no
 * package holds its CPUs. Chiplets are kept apart by package, not by id: two packages sharing an id (IA-64), or
 * packages without one (s390 before {@code socket_id}, POWER partitions), never share a chiplet.
 */
public final class ChipletDerivation
{
    private static final int NONE = -1;

    private ChipletDerivation() {}

    /**
     * @param online the online CPUs; the chiplets partition exactly these
     * @param virtualChipletCores when positive, split every domain into virtual chiplets of this many physical cores
     * @return chiplets numbered 0.. in order of their first CPU
     */
    public static List<Chiplet> derive(
            CpuSet online,
            List<CpuPackage> packages,
            List<Die> dies,
            List<Cluster> clusters,
            List<NumaNode> numaNodes,
            List<Cache> caches,
            List<Core> cores,
            int virtualChipletCores)
    {
        requireNonNull(online, "online is null");
        requireNonNull(packages, "packages is null");
        requireNonNull(dies, "dies is null");
        requireNonNull(clusters, "clusters is null");
        requireNonNull(numaNodes, "numaNodes is null");
        requireNonNull(caches, "caches is null");
        requireNonNull(cores, "cores is null");
        if (virtualChipletCores < 0) {
            throw new IllegalArgumentException("virtualChipletCores must not be negative: " + virtualChipletCores);
        }
        if (online.isEmpty()) {
            return List.of();
        }

        int size = online.last() + 1;
        // chiplets are kept apart by package, not by package id: ids may be -1 or shared by packages (IA-64)
        int[] packageOf = owners(size, packages.stream().map(CpuPackage::cpus).toList());
        int[] packageIdOf = ids(packageOf, packages.stream().mapToInt(CpuPackage::id).toArray());
        List<NumaNode> nodesById = numaNodes.stream().sorted(Comparator.comparingInt(NumaNode::id)).toList();
        int[] nodeIdOf = ids(owners(size, nodesById.stream().map(node -> node.cpus().intersect(online)).toList()),
                nodesById.stream().mapToInt(NumaNode::id).toArray());
        List<Cache> l3s = caches.stream()
                .filter(cache -> cache.level() == 3 && cache.type() != CacheType.INSTRUCTION && cache.cpus().intersects(online))
                .toList();

        List<Domain> domains;
        if (!l3s.isEmpty()) {
            domains = l3Domains(online, l3s, packageOf, nodeIdOf);
        }
        else {
            domains = domainsWithoutL3(online, dies, clusters, packageOf, nodeIdOf);
        }

        List<Domain> result = virtualChipletCores > 0 ? splitVirtual(domains, cores, virtualChipletCores) : domains;
        List<Domain> sorted = new ArrayList<>(result);
        sorted.sort(Comparator.comparingInt(domain -> domain.cpus().nextSetBit(0)));
        List<Chiplet> chiplets = new ArrayList<>(sorted.size());
        for (Domain domain : sorted) {
            int first = domain.cpus().nextSetBit(0);
            chiplets.add(new Chiplet(chiplets.size(), packageIdOf[first], nodeIdOf[first], CpuSet.fromBitSet(domain.cpus()), domain.l3Bytes(), domain.basis()));
        }
        return List.copyOf(chiplets);
    }

    /**
     * A domain before numbering: its CPUs, its L3 bytes, and the size and online CPU count of the whole L3 instance
     * it lies in (0 without L3), from which virtual chiplets take their share.
     */
    private record Domain(BitSet cpus, long l3Bytes, long l3InstanceBytes, int l3Cpus, ChipletBasis basis) {}

    /** @param packageIndex the package's place in the reader's list, -1 for CPUs of no package */
    private record Key(int group, int packageIndex, int nodeId) {}

    private static List<Domain> l3Domains(CpuSet online, List<Cache> l3s, int[] packageOf, int[] nodeIdOf)
    {
        int[] l3Of = owners(packageOf.length, l3s.stream().map(Cache::cpus).toList());
        Map<Key, BitSet> groups = group(online, cpu -> l3Of[cpu], packageOf, nodeIdOf);
        List<Domain> domains = new ArrayList<>(groups.size());
        for (Map.Entry<Key, BitSet> entry : groups.entrySet()) {
            int l3 = entry.getKey().group();
            if (l3 == NONE) {
                // an online CPU no L3 instance lists (a partial sysfs): its own package/node domain, no L3
                domains.add(new Domain(entry.getValue(), 0, 0, 0, ChipletBasis.PACKAGE));
                continue;
            }
            CpuSet l3Cpus = l3s.get(l3).cpus().intersect(online);
            long l3Bytes = l3s.get(l3).sizeBytes();
            if (entry.getValue().cardinality() == l3Cpus.size()) {
                domains.add(new Domain(entry.getValue(), l3Bytes, l3Bytes, l3Cpus.size(), ChipletBasis.L3));
            }
            else {
                // SNC/NPS splits the L3 along node boundaries: each part effectively caches in its own slices
                domains.add(new Domain(entry.getValue(), share(l3Bytes, entry.getValue().cardinality(), l3Cpus.size()), l3Bytes, l3Cpus.size(), ChipletBasis.L3_NUMA));
            }
        }
        return domains;
    }

    private static List<Domain> domainsWithoutL3(CpuSet online, List<Die> dies, List<Cluster> clusters, int[] packageOf, int[] nodeIdOf)
    {
        int size = packageOf.length;
        Map<Integer, Long> nodesPerPackage = new LinkedHashMap<>();
        Map<Key, BitSet> byPackageAndNode = group(online, cpu -> 0, packageOf, nodeIdOf);
        for (Key key : byPackageAndNode.keySet()) {
            nodesPerPackage.merge(key.packageIndex(), 1L, Long::sum);
        }
        if (nodesPerPackage.values().stream().anyMatch(count -> count > 1)) {
            return domains(byPackageAndNode, ChipletBasis.NUMA);
        }
        if (informative(clusters.stream().map(Cluster::cpus).toList(), clusters.stream().mapToInt(Cluster::packageId).toArray(), online)) {
            int[] clusterOf = owners(size, clusters.stream().map(Cluster::cpus).toList());
            return domains(group(online, cpu -> clusterOf[cpu], packageOf, nodeIdOf), ChipletBasis.CLUSTER);
        }
        if (informative(dies.stream().map(Die::cpus).toList(), dies.stream().mapToInt(Die::packageId).toArray(), online)) {
            int[] dieOf = owners(size, dies.stream().map(Die::cpus).toList());
            return domains(group(online, cpu -> dieOf[cpu], packageOf, nodeIdOf), ChipletBasis.DIE);
        }
        return domains(byPackageAndNode, ChipletBasis.PACKAGE);
    }

    /**
     * Clusters or dies are worth a chiplet each when some package holds several of them and each holds more than one
     * CPU: a cluster per core (x86 P-cores, many ARM parts) says nothing about locality.
     */
    private static boolean informative(List<CpuSet> groups, int[] packageIds, CpuSet online)
    {
        Map<Integer, Integer> perPackage = new LinkedHashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            CpuSet cpus = groups.get(i).intersect(online);
            if (cpus.isEmpty()) {
                continue;
            }
            if (cpus.size() < 2) {
                return false;
            }
            perPackage.merge(packageIds[i], 1, Integer::sum);
        }
        return perPackage.values().stream().anyMatch(count -> count > 1);
    }

    private static List<Domain> domains(Map<Key, BitSet> groups, ChipletBasis basis)
    {
        return groups.values().stream().map(cpus -> new Domain(cpus, 0, 0, 0, basis)).toList();
    }

    private static List<Domain> splitVirtual(List<Domain> domains, List<Core> cores, int coresPerChiplet)
    {
        List<Core> byFirstCpu = cores.stream().sorted(Comparator.comparingInt(Core::firstCpu)).toList();
        List<Domain> result = new ArrayList<>();
        for (Domain domain : domains) {
            // physical cores of this domain in order of first CPU; CPUs no core lists count as a core each
            List<BitSet> units = new ArrayList<>();
            BitSet covered = new BitSet();
            for (Core core : byFirstCpu) {
                BitSet cpus = core.cpus().toBitSet();
                cpus.and(domain.cpus());
                if (!cpus.isEmpty()) {
                    units.add(cpus);
                    covered.or(cpus);
                }
            }
            BitSet rest = (BitSet) domain.cpus().clone();
            rest.andNot(covered);
            rest.stream().forEach(cpu -> {
                BitSet single = new BitSet();
                single.set(cpu);
                units.add(single);
            });
            units.sort(Comparator.comparingInt(unit -> unit.nextSetBit(0)));

            for (int from = 0; from < units.size(); from += coresPerChiplet) {
                BitSet cpus = new BitSet();
                for (BitSet unit : units.subList(from, Math.min(units.size(), from + coresPerChiplet))) {
                    cpus.or(unit);
                }
                long l3Bytes = domain.l3Cpus() == 0 ? 0 : share(domain.l3InstanceBytes(), cpus.cardinality(), domain.l3Cpus());
                result.add(new Domain(cpus, l3Bytes, domain.l3InstanceBytes(), domain.l3Cpus(), ChipletBasis.VIRTUAL));
            }
        }
        return result;
    }

    /** {@code total * part / whole}: cache sizes stay far below 2^40 and CPU counts below 2^13, so no overflow. */
    private static long share(long total, int part, int whole)
    {
        return total * part / whole;
    }

    private interface CpuFunction
    {
        int apply(int cpu);
    }

    private static Map<Key, BitSet> group(CpuSet online, CpuFunction groupOf, int[] packageOf, int[] nodeIdOf)
    {
        Map<Key, BitSet> groups = new LinkedHashMap<>();
        for (int cpu : online.toArray()) {
            groups.computeIfAbsent(new Key(groupOf.apply(cpu), packageOf[cpu], nodeIdOf[cpu]), key -> new BitSet()).set(cpu);
        }
        return groups;
    }

    /** For every CPU below {@code size}: the index of the first set holding it, or -1. */
    private static int[] owners(int size, List<CpuSet> sets)
    {
        int[] owner = new int[size];
        Arrays.fill(owner, NONE);
        for (int i = sets.size() - 1; i >= 0; i--) {
            int index = i;
            sets.get(i).stream().filter(cpu -> cpu < size).forEach(cpu -> owner[cpu] = index);
        }
        return owner;
    }

    private static int[] ids(int[] owners, int[] ids)
    {
        int[] result = new int[owners.length];
        for (int cpu = 0; cpu < owners.length; cpu++) {
            result[cpu] = owners[cpu] == NONE ? NONE : ids[owners[cpu]];
        }
        return result;
    }
}
