package io.chiplet.placement;

import io.chiplet.topology.Cache;
import io.chiplet.topology.CacheType;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Core;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Die;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Uniform machines built in memory, numbered the way Linux numbers x86 servers: the first thread of every core
 * first (package 0's cores, then package 1's), then the second threads in the same order. Used by benchmarks and
 * tests that need machines larger than any snapshot at hand.
 */
public final class SyntheticTopologies
{
    private static final long L2_BYTES = 512L << 10;
    private static final long NODE_MEMORY_BYTES = 64L << 30;

    private SyntheticTopologies() {}

    /** 512 CPUs: 2 packages x 16 chiplets x 8 cores x 2 threads, 32 MiB L3 per chiplet, one NUMA node per package. */
    public static Topology cpus512()
    {
        return uniform("synthetic:512", 2, 16, 8, 2, 32L << 20, 2);
    }

    /**
     * @param numaNodes 1 (one node for the machine) or a multiple of {@code packages}; a package's chiplets are split
     * evenly between its nodes
     */
    public static Topology uniform(String source, int packages, int chipletsPerPackage, int coresPerChiplet, int threadsPerCore, long l3BytesPerChiplet, int numaNodes)
    {
        if (packages < 1 || chipletsPerPackage < 1 || coresPerChiplet < 1 || threadsPerCore < 1) {
            throw new IllegalArgumentException("packages, chiplets, cores and threads must be positive");
        }
        if (numaNodes != 1 && (numaNodes % packages != 0 || chipletsPerPackage % (numaNodes / packages) != 0)) {
            throw new IllegalArgumentException("numaNodes must be 1 or divide the chiplets evenly per package: " + numaNodes);
        }
        int coresPerPackage = chipletsPerPackage * coresPerChiplet;
        int totalCores = packages * coresPerPackage;
        int nodesPerPackage = Math.max(1, numaNodes / packages);
        int chipletsPerNode = chipletsPerPackage / nodesPerPackage;

        List<CpuPackage> packageList = new ArrayList<>();
        List<Die> dies = new ArrayList<>();
        List<Core> cores = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        List<Chiplet> chiplets = new ArrayList<>();
        BitSet[] nodeCpus = new BitSet[numaNodes];
        for (int node = 0; node < numaNodes; node++) {
            nodeCpus[node] = new BitSet();
        }
        for (int pkg = 0; pkg < packages; pkg++) {
            BitSet packageCpus = new BitSet();
            for (int chiplet = 0; chiplet < chipletsPerPackage; chiplet++) {
                int node = numaNodes == 1 ? 0 : pkg * nodesPerPackage + chiplet / chipletsPerNode;
                BitSet chipletCpus = new BitSet();
                for (int core = 0; core < coresPerChiplet; core++) {
                    int coreId = chiplet * coresPerChiplet + core;
                    BitSet siblings = new BitSet();
                    for (int thread = 0; thread < threadsPerCore; thread++) {
                        siblings.set(thread * totalCores + pkg * coresPerPackage + coreId);
                    }
                    CpuSet coreCpus = CpuSet.fromBitSet(siblings);
                    cores.add(new Core(pkg, coreId, coreCpus, Optional.empty()));
                    caches.add(new Cache(2, CacheType.UNIFIED, L2_BYTES, 64, coreCpus));
                    chipletCpus.or(siblings);
                }
                CpuSet cpus = CpuSet.fromBitSet(chipletCpus);
                caches.add(new Cache(3, CacheType.UNIFIED, l3BytesPerChiplet, 64, cpus));
                chiplets.add(new Chiplet(pkg * chipletsPerPackage + chiplet, pkg, node, cpus, l3BytesPerChiplet, ChipletBasis.L3));
                nodeCpus[node].or(chipletCpus);
                packageCpus.or(chipletCpus);
            }
            packageList.add(new CpuPackage(pkg, CpuSet.fromBitSet(packageCpus)));
            dies.add(new Die(pkg, 0, CpuSet.fromBitSet(packageCpus)));
        }
        List<NumaNode> nodes = new ArrayList<>();
        for (int node = 0; node < numaNodes; node++) {
            Map<Integer, Integer> distances = new TreeMap<>();
            for (int other = 0; other < numaNodes; other++) {
                boolean samePackage = other / nodesPerPackage == node / nodesPerPackage;
                distances.put(other, other == node ? 10 : samePackage ? 12 : 32);
            }
            nodes.add(NumaNode.of(node, CpuSet.fromBitSet(nodeCpus[node]), NODE_MEMORY_BYTES, distances));
        }
        CpuSet all = CpuSet.range(0, totalCores * threadsPerCore - 1);
        return Topology.builder(source, all).packages(packageList).dies(dies).numaNodes(nodes).caches(caches)
                .cores(sortByFirstCpu(cores)).chiplets(sortChiplets(chiplets)).build();
    }

    private static List<Core> sortByFirstCpu(List<Core> cores)
    {
        return cores.stream().sorted((a, b) -> Integer.compare(a.firstCpu(), b.firstCpu())).toList();
    }

    /** Chiplets are numbered in order of their first CPU, as the derivation numbers them. */
    private static List<Chiplet> sortChiplets(List<Chiplet> chiplets)
    {
        List<Chiplet> sorted = chiplets.stream().sorted((a, b) -> Integer.compare(a.cpus().first(), b.cpus().first())).toList();
        List<Chiplet> numbered = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Chiplet c = sorted.get(i);
            numbered.add(new Chiplet(i, c.packageId(), c.numaNode(), c.cpus(), c.l3Bytes(), c.basis()));
        }
        return numbered;
    }
}
