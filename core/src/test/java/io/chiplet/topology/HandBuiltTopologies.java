package io.chiplet.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Topologies built by hand, shaped like real machines, for testing what renders a {@link Topology}
 * independently of the readers.
 */
public final class HandBuiltTopologies
{
    public static final long KIB = 1024;
    public static final long MIB = 1024 * KIB;
    public static final long GIB = 1024 * MIB;

    private HandBuiltTopologies() {}

    /**
     * Two EPYC 7763 (Milan) in NPS1: 2 x 64 cores, SMT 2, 256 CPUs numbered like Linux does (package 0 holds
     * 0-63 and their siblings 128-191), 16 CCDs with 32 MiB of L3 each.
     */
    public static Topology dualEpycMilan()
    {
        List<CpuPackage> packages = new ArrayList<>();
        List<NumaNode> nodes = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        List<Core> cores = new ArrayList<>();
        List<Chiplet> chiplets = new ArrayList<>();
        for (int pkg = 0; pkg < 2; pkg++) {
            CpuSet cpus = CpuSet.range(pkg * 64, pkg * 64 + 63).union(CpuSet.range(128 + pkg * 64, 128 + pkg * 64 + 63));
            packages.add(new CpuPackage(pkg, cpus));
            nodes.add(NumaNode.of(pkg, cpus, 256 * GIB, pkg == 0 ? Map.of(0, 10, 1, 32) : Map.of(0, 32, 1, 10)));
        }
        for (int core = 0; core < 128; core++) {
            CpuSet siblings = CpuSet.of(core, core + 128);
            cores.add(new Core(core / 64, core % 64, siblings, Optional.empty()));
            caches.add(new Cache(1, CacheType.DATA, 32 * KIB, 64, siblings));
            caches.add(new Cache(1, CacheType.INSTRUCTION, 32 * KIB, 64, siblings));
            caches.add(new Cache(2, CacheType.UNIFIED, 512 * KIB, 64, siblings));
        }
        for (int ccd = 0; ccd < 16; ccd++) {
            CpuSet cpus = CpuSet.range(ccd * 8, ccd * 8 + 7).union(CpuSet.range(128 + ccd * 8, 128 + ccd * 8 + 7));
            caches.add(new Cache(3, CacheType.UNIFIED, 32 * MIB, 64, cpus));
            chiplets.add(new Chiplet(ccd, ccd / 8, ccd / 8, cpus, 32 * MIB, ChipletBasis.L3));
        }
        CpuSet all = CpuSet.range(0, 255);
        return Topology.builder("sysfs:/", all)
                .packages(packages)
                .dies(packages.stream().map(p -> new Die(p.id(), 0, p.cpus())).toList())
                .numaNodes(nodes)
                .caches(caches)
                .cores(cores)
                .chiplets(chiplets)
                .build();
    }

    /**
     * A Raptor Lake laptop (like hwloc's fixture): 6 performance cores with SMT (CPUs 0-11), 8 efficiency cores
     * in two 4-core clusters (12-19), one 24 MiB L3.
     */
    public static Topology hybridLaptop()
    {
        List<Core> cores = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        for (int core = 0; core < 6; core++) {
            CpuSet siblings = CpuSet.of(2 * core, 2 * core + 1);
            cores.add(new Core(0, core * 4, siblings, Optional.of(CoreKind.PERFORMANCE)));
            caches.add(new Cache(2, CacheType.UNIFIED, 1280 * KIB, 64, siblings));
        }
        for (int core = 0; core < 8; core++) {
            cores.add(new Core(0, 32 + core, CpuSet.of(12 + core), Optional.of(CoreKind.EFFICIENCY)));
        }
        List<Cluster> clusters = new ArrayList<>();
        for (int cluster = 0; cluster < 2; cluster++) {
            CpuSet cpus = CpuSet.range(12 + 4 * cluster, 15 + 4 * cluster);
            clusters.add(new Cluster(0, 8 + cluster, cpus));
            caches.add(new Cache(2, CacheType.UNIFIED, 2 * MIB, 64, cpus));
        }
        CpuSet all = CpuSet.range(0, 19);
        caches.add(new Cache(3, CacheType.UNIFIED, 24 * MIB, 64, all));
        return Topology.builder("sysfs:/tmp/raptorlake", all)
                .packages(List.of(new CpuPackage(0, all)))
                .dies(List.of(new Die(0, 0, all)))
                .clusters(clusters)
                .numaNodes(List.of(new NumaNode(0, all, OptionalLong.of(32 * GIB), new TreeMap<>(Map.of(0, 10)))))
                .caches(caches)
                .cores(cores)
                .coreKinds(List.of(
                        new CoreKind(CoreKind.PERFORMANCE, 0, CpuSet.range(0, 11)),
                        new CoreKind(CoreKind.EFFICIENCY, 1, CpuSet.range(12, 19))))
                .chiplets(List.of(new Chiplet(0, 0, 0, all, 24 * MIB, ChipletBasis.L3)))
                .build();
    }

    /**
     * A dual Xeon in SNC2 with interleaved CPU numbers: package 0 holds the even CPUs, package 1 the odd ones;
     * each package's L3 (22 MiB) is split by two SNC nodes of 8 cores; node 4 is memory without CPUs (CXL).
     */
    public static Topology snc2Interleaved()
    {
        List<CpuPackage> packages = new ArrayList<>();
        List<NumaNode> nodes = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        List<Core> cores = new ArrayList<>();
        List<Chiplet> chiplets = new ArrayList<>();
        for (int pkg = 0; pkg < 2; pkg++) {
            CpuSet packageCpus = stride(pkg, 2, 16);
            packages.add(new CpuPackage(pkg, packageCpus));
            caches.add(new Cache(3, CacheType.UNIFIED, 22 * MIB, 64, packageCpus));
            for (int half = 0; half < 2; half++) {
                int node = pkg * 2 + half;
                CpuSet nodeCpus = stride(pkg + 16 * half, 2, 8);
                Map<Integer, Integer> distances = new TreeMap<>();
                for (int other = 0; other < 5; other++) {
                    distances.put(other, other == node ? 10 : other == 4 ? 30 : other / 2 == pkg ? 11 : 21);
                }
                nodes.add(NumaNode.of(node, nodeCpus, 48 * GIB, distances));
                chiplets.add(new Chiplet(-1, pkg, node, nodeCpus, 11 * MIB, ChipletBasis.L3_NUMA));
            }
        }
        nodes.add(NumaNode.of(4, CpuSet.empty(), 128 * GIB, Map.of(0, 30, 1, 30, 2, 30, 3, 30, 4, 10)));
        for (int cpu = 0; cpu < 32; cpu++) {
            cores.add(new Core(cpu % 2, cpu / 2, CpuSet.of(cpu), Optional.empty()));
        }
        // Chiplets are numbered in order of their first CPU: node 0 (0), node 2 (1), node 1 (16), node 3 (17).
        List<Chiplet> numbered = new ArrayList<>();
        chiplets.stream()
                .sorted((a, b) -> Integer.compare(a.cpus().first(), b.cpus().first()))
                .forEach(c -> numbered.add(new Chiplet(numbered.size(), c.packageId(), c.numaNode(), c.cpus(), c.l3Bytes(), c.basis())));
        CpuSet all = CpuSet.range(0, 31);
        return Topology.builder("sysfs:/snapshots/cascadelake-snc2", all)
                .packages(packages)
                .dies(packages.stream().map(p -> new Die(p.id(), 0, p.cpus())).toList())
                .numaNodes(nodes)
                .caches(caches)
                .cores(cores)
                .chiplets(numbered)
                .build();
    }

    /**
     * A 4-socket AMD box (2 NUMA nodes of 4 cores per package, one L3 per node) whose cgroup v2 cpuset allows
     * only 8-15 and 24-27; CPU 31 is offline.
     */
    public static Topology cgroupRestricted()
    {
        CpuSet present = CpuSet.range(0, 31);
        CpuSet online = CpuSet.range(0, 30);
        List<CpuPackage> packages = new ArrayList<>();
        List<NumaNode> nodes = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        List<Core> cores = new ArrayList<>();
        List<Chiplet> chiplets = new ArrayList<>();
        for (int pkg = 0; pkg < 4; pkg++) {
            packages.add(new CpuPackage(pkg, CpuSet.range(pkg * 8, pkg * 8 + 7).intersect(online)));
        }
        for (int node = 0; node < 8; node++) {
            CpuSet cpus = CpuSet.range(node * 4, node * 4 + 3).intersect(online);
            Map<Integer, Integer> distances = new TreeMap<>();
            for (int other = 0; other < 8; other++) {
                distances.put(other, other == node ? 10 : other / 2 == node / 2 ? 16 : 22);
            }
            nodes.add(NumaNode.of(node, cpus, 8 * GIB, distances));
            caches.add(new Cache(3, CacheType.UNIFIED, 6 * MIB, 64, cpus));
            chiplets.add(new Chiplet(node, node / 2, node, cpus, 6 * MIB, ChipletBasis.L3));
        }
        for (int cpu = 0; cpu < 31; cpu++) {
            cores.add(new Core(cpu / 8, cpu % 8, CpuSet.of(cpu), Optional.empty()));
        }
        return Topology.builder("sysfs:/snapshots/32amd64-4s2n4c-cgroup", online)
                .present(present)
                .allowed(CpuSet.parseList("8-15,24-27"))
                .packages(packages)
                .dies(packages.stream().map(p -> new Die(p.id(), 0, p.cpus())).toList())
                .numaNodes(nodes)
                .caches(caches)
                .cores(cores)
                .chiplets(chiplets)
                .build();
    }

    /**
     * The smallest machine that shows every JSON rule: 2 cores with SMT (CPUs 0,2 and 1,3), a CPU-less NUMA
     * node, L1 caches the contract leaves out, a core kind nobody knows, a NUMA node of unknown memory size.
     */
    public static Topology tiny()
    {
        CpuSet all = CpuSet.range(0, 3);
        return Topology.builder("hwloc-xml:tiny.xml", all)
                .allowed(CpuSet.of(0, 1))
                .packages(List.of(new CpuPackage(0, all)))
                .dies(List.of(new Die(0, 0, all)))
                .numaNodes(List.of(
                        NumaNode.of(0, all, 8 * GIB, Map.of(0, 10, 1, 20)),
                        new NumaNode(1, CpuSet.empty(), OptionalLong.empty(), new TreeMap<>(Map.of(0, 20, 1, 10)))))
                .caches(List.of(
                        new Cache(1, CacheType.DATA, 32 * KIB, 64, CpuSet.of(0, 2)),
                        new Cache(1, CacheType.INSTRUCTION, 32 * KIB, 64, CpuSet.of(0, 2)),
                        new Cache(2, CacheType.UNIFIED, MIB, 64, CpuSet.of(0, 2)),
                        new Cache(2, CacheType.UNIFIED, MIB, 64, CpuSet.of(1, 3)),
                        new Cache(3, CacheType.UNIFIED, 16 * MIB, 64, all)))
                .cores(List.of(
                        new Core(0, 0, CpuSet.of(0, 2), Optional.empty()),
                        new Core(0, 1, CpuSet.of(1, 3), Optional.empty())))
                .chiplets(List.of(new Chiplet(0, 0, 0, all, 16 * MIB, ChipletBasis.L3)))
                .unknowns(List.of("no memory size for NUMA node 1"))
                .build();
    }

    /** {@code count} CPUs from {@code first}, {@code step} apart. */
    private static CpuSet stride(int first, int step, int count)
    {
        int[] cpus = new int[count];
        for (int i = 0; i < count; i++) {
            cpus[i] = first + i * step;
        }
        return CpuSet.of(cpus);
    }
}
