package io.chiplet.placement;

import io.chiplet.topology.Cache;
import io.chiplet.topology.CacheType;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Cluster;
import io.chiplet.topology.Core;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Die;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Topologies of real machines, written out by hand from their snapshots so the planner can be tested before (and
 * independently of) the readers. After the readers land, each one here should equal what the reader makes of the
 * snapshot named in its javadoc; the chiplet numbering and {@code l3Bytes} follow {@code spec/topology-json.md}.
 */
public final class TestTopologies
{
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    private TestTopologies() {}

    /** Every topology here, for property tests. */
    public static List<Topology> all()
    {
        return List.of(dualEpyc7763(), epyc7763HwlocXml(), cascadeLakeSnc2(), raptorLakeHybrid(), twoChiplets(), SyntheticTopologies.cpus512(),
                withOffline(cascadeLakeSnc2(), CpuSet.parseList("0,5,41,60-79")));
    }

    /**
     * The topology as a reader sees it after {@code offline} CPUs were taken offline: they stay present but leave every
     * CPU set, and packages, cores, caches and chiplets left with no CPU disappear.
     */
    public static Topology withOffline(Topology topology, CpuSet offline)
    {
        CpuSet online = topology.online().minus(offline);
        List<Chiplet> chiplets = new ArrayList<>();
        for (Chiplet chiplet : topology.chiplets()) {
            CpuSet cpus = chiplet.cpus().intersect(online);
            if (!cpus.isEmpty()) {
                chiplets.add(new Chiplet(chiplets.size(), chiplet.packageId(), chiplet.numaNode(), cpus, chiplet.l3Bytes(), chiplet.basis()));
            }
        }
        return topology.toBuilder()
                .source(topology.source() + "+offline:" + offline)
                .online(online)
                .allowed(topology.allowed().intersect(online))
                .packages(topology.packages().stream().filter(p -> p.cpus().intersects(online)).map(p -> new CpuPackage(p.id(), p.cpus().intersect(online))).toList())
                .dies(topology.dies().stream().filter(d -> d.cpus().intersects(online)).map(d -> new Die(d.packageId(), d.id(), d.cpus().intersect(online))).toList())
                .clusters(topology.clusters().stream().filter(c -> c.cpus().intersects(online)).map(c -> new Cluster(c.packageId(), c.id(), c.cpus().intersect(online))).toList())
                .numaNodes(topology.numaNodes().stream().map(n -> new NumaNode(n.id(), n.cpus().intersect(online), n.memoryBytes(), n.distances())).toList())
                .caches(topology.caches().stream().filter(c -> c.cpus().intersects(online))
                        .map(c -> new Cache(c.level(), c.type(), c.sizeBytes(), c.lineSizeBytes(), c.cpus().intersect(online))).toList())
                .cores(topology.cores().stream().filter(c -> c.cpus().intersects(online)).map(c -> new Core(c.packageId(), c.coreId(), c.cpus().intersect(online), c.kind())).toList())
                .coreKinds(topology.coreKinds().stream().map(k -> new CoreKind(k.name(), k.rank(), k.cpus().intersect(online))).toList())
                .chiplets(chiplets)
                .unknowns(List.of())
                .build();
    }

    /**
     * A dual EPYC 7763 as Linux numbers it with SMT on and NPS1: package 0 cores on CPUs 0-63, package 1 on 64-127,
     * SMT siblings at +128; 8 CCDs of 8 cores per package, 32 MiB L3 per CCD; one NUMA node per package.
     */
    public static Topology dualEpyc7763()
    {
        return SyntheticTopologies.uniform("synthetic:dual-epyc-7763-smt-nps1", 2, 8, 8, 2, 32 * MIB, 2);
    }

    /**
     * {@code fixtures/hwloc-xml/AMD-Zen3-2xEpyc-7763.xml} exactly: 128 CPUs without SMT, package 0 = CPUs 0-63 and
     * package 1 = 64-127 (core os_index 0-63 in each), 16 L3s of 32 MiB over 8 CPUs, 512 KiB L2 per core, and a single
     * NUMA node over the whole machine with no memory size or distances in the file.
     */
    public static Topology epyc7763HwlocXml()
    {
        Topology uniform = SyntheticTopologies.uniform("hwloc-xml:AMD-Zen3-2xEpyc-7763.xml", 2, 8, 8, 1, 32 * MIB, 1);
        CpuSet all = CpuSet.range(0, 127);
        NumaNode node = new NumaNode(0, all, OptionalLong.empty(), new TreeMap<>());
        return Topology.builder(uniform.source(), all).packages(uniform.packages()).dies(uniform.dies()).numaNodes(List.of(node))
                .caches(uniform.caches()).cores(uniform.cores()).chiplets(uniform.chiplets()).build();
    }

    /**
     * {@code fixtures/hwloc-sysfs/memorysidecaches.tar.bz2}: dual Xeon (Cascade Lake, 20 cores per package, SMT) in
     * SNC2. Even CPUs are package 0, odd CPUs package 1; CPU {@code c} and {@code c + 40} are SMT siblings; NUMA node
     * {@code c % 4} holds CPU {@code c} (nodes 0 and 2 in package 0, 1 and 3 in package 1). One 27.5 MiB L3 per package
     * spans both of its SNC nodes, so each chiplet is an L3-and-node half with half the L3 ({@code l3+numa}).
     */
    public static Topology cascadeLakeSnc2()
    {
        // topology/core_id of CPUs 0-39 (CPU c + 40 has the same), as the snapshot lists them.
        int[] coreIds = {0, 0, 4, 4, 1, 1, 3, 3, 2, 2, 12, 12, 8, 8, 11, 11, 9, 9, 10, 10,
                16, 16, 20, 20, 17, 17, 19, 19, 18, 18, 28, 28, 24, 24, 27, 27, 25, 25, 26, 26};
        long l3 = 28160 * KIB;
        long[] memoryKib = {388492316, 390163848, 390163840, 390162812};
        int[][] distance = {{10, 21, 11, 21}, {21, 10, 21, 11}, {11, 21, 10, 21}, {21, 11, 21, 10}};

        List<Core> cores = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        for (int cpu = 0; cpu < 40; cpu++) {
            CpuSet siblings = CpuSet.of(cpu, cpu + 40);
            cores.add(new Core(cpu % 2, coreIds[cpu], siblings, Optional.empty()));
            caches.add(new Cache(2, CacheType.UNIFIED, MIB, 64, siblings));
        }
        CpuSet[] packageCpus = {stride(0, 2, 80), stride(1, 2, 80)};
        caches.add(new Cache(3, CacheType.UNIFIED, l3, 64, packageCpus[0]));
        caches.add(new Cache(3, CacheType.UNIFIED, l3, 64, packageCpus[1]));
        List<NumaNode> nodes = new ArrayList<>();
        List<Chiplet> chiplets = new ArrayList<>();
        for (int node = 0; node < 4; node++) {
            Map<Integer, Integer> distances = new TreeMap<>();
            for (int other = 0; other < 4; other++) {
                distances.put(other, distance[node][other]);
            }
            CpuSet cpus = stride(node, 4, 80);
            nodes.add(NumaNode.of(node, cpus, memoryKib[node] * KIB, distances));
            chiplets.add(new Chiplet(node, node % 2, node, cpus, l3 / 2, ChipletBasis.L3_NUMA));
        }
        CpuSet all = CpuSet.range(0, 79);
        return Topology.builder("sysfs:memorysidecaches", all)
                .packages(List.of(new CpuPackage(0, packageCpus[0]), new CpuPackage(1, packageCpus[1])))
                .dies(List.of(new Die(0, 0, packageCpus[0]), new Die(1, 0, packageCpus[1])))
                .numaNodes(nodes)
                .caches(caches)
                .cores(sortByFirstCpu(cores))
                .chiplets(chiplets)
                .build();
    }

    /**
     * {@code fixtures/hwloc-sysfs/20em64t-hybrid-1p6c2t+2ca4co1t.tar.bz2}: a Raptor Lake laptop. 6 performance cores with
     * SMT on CPUs 0-11 (siblings 2k, 2k+1; core_id 4k; 1.25 MiB L2 each), 8 efficiency cores on CPUs 12-19 in two
     * clusters of 4 sharing a 2 MiB L2 (core_id 24-31), one 24 MiB L3 and one NUMA node. hwloc ranks the kinds by base
     * frequency (1900 vs 1400 MHz).
     */
    public static Topology raptorLakeHybrid()
    {
        List<Core> cores = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        List<Cluster> clusters = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            CpuSet siblings = CpuSet.of(2 * k, 2 * k + 1);
            cores.add(new Core(0, 4 * k, siblings, Optional.of(CoreKind.PERFORMANCE)));
            caches.add(new Cache(2, CacheType.UNIFIED, 1280 * KIB, 64, siblings));
            clusters.add(new Cluster(0, 8 * k, siblings));
        }
        for (int cpu = 12; cpu < 20; cpu++) {
            cores.add(new Core(0, cpu + 12, CpuSet.of(cpu), Optional.of(CoreKind.EFFICIENCY)));
        }
        caches.add(new Cache(2, CacheType.UNIFIED, 2 * MIB, 64, CpuSet.range(12, 15)));
        caches.add(new Cache(2, CacheType.UNIFIED, 2 * MIB, 64, CpuSet.range(16, 19)));
        clusters.add(new Cluster(0, 48, CpuSet.range(12, 15)));
        clusters.add(new Cluster(0, 56, CpuSet.range(16, 19)));
        CpuSet all = CpuSet.range(0, 19);
        caches.add(new Cache(3, CacheType.UNIFIED, 24 * MIB, 64, all));
        return Topology.builder("sysfs:20em64t-hybrid-1p6c2t+2ca4co1t", all)
                .packages(List.of(new CpuPackage(0, all)))
                .dies(List.of(new Die(0, 0, all)))
                .clusters(clusters)
                .numaNodes(List.of(NumaNode.of(0, all, 32489480L * KIB, Map.of(0, 10))))
                .caches(caches)
                .cores(cores)
                .coreKinds(List.of(new CoreKind(CoreKind.PERFORMANCE, 0, CpuSet.range(0, 11)), new CoreKind(CoreKind.EFFICIENCY, 1, CpuSet.range(12, 19))))
                .chiplets(List.of(new Chiplet(0, 0, 0, all, 24 * MIB, ChipletBasis.L3)))
                .build();
    }

    /** The smallest machine with chiplets: CPUs 0 and 1, one core each, each with its own 16 MiB L3, one node. */
    public static Topology twoChiplets()
    {
        CpuSet all = CpuSet.range(0, 1);
        return Topology.builder("synthetic:two-chiplets", all)
                .packages(List.of(new CpuPackage(0, all)))
                .dies(List.of(new Die(0, 0, all)))
                .numaNodes(List.of(NumaNode.of(0, all, 8L << 30, Map.of(0, 10))))
                .caches(List.of(new Cache(3, CacheType.UNIFIED, 16 * MIB, 64, CpuSet.of(0)), new Cache(3, CacheType.UNIFIED, 16 * MIB, 64, CpuSet.of(1))))
                .cores(List.of(new Core(0, 0, CpuSet.of(0), Optional.empty()), new Core(0, 1, CpuSet.of(1), Optional.empty())))
                .chiplets(List.of(new Chiplet(0, 0, 0, CpuSet.of(0), 16 * MIB, ChipletBasis.L3), new Chiplet(1, 0, 0, CpuSet.of(1), 16 * MIB, ChipletBasis.L3)))
                .build();
    }

    private static CpuSet stride(int first, int step, int end)
    {
        CpuSet result = CpuSet.empty();
        for (int cpu = first; cpu < end; cpu += step) {
            result = result.union(CpuSet.of(cpu));
        }
        return result;
    }

    private static List<Core> sortByFirstCpu(List<Core> cores)
    {
        return cores.stream().sorted((a, b) -> Integer.compare(a.firstCpu(), b.firstCpu())).toList();
    }
}
