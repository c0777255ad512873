package io.chiplet.jmh.workload;

import io.chiplet.topology.Cache;
import io.chiplet.topology.CacheType;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Core;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;


import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/** Hand-built topologies for tests: a dual EPYC 7763 and single-L3 machines. */
public final class TestTopologies
{
    private TestTopologies() {}

    /**
     * A dual EPYC 7763 in NPS1 as Linux numbers it: 2 sockets x 8 CCDs x 8 cores x 2 threads, core CPUs 0-127 and
     * their SMT siblings 128-255, one NUMA node per socket, one 32 MiB L3 per CCD.
     */
    public static Topology dualEpyc7763()
    {
        List<Chiplet> chiplets = new ArrayList<>();
        List<Cache> caches = new ArrayList<>();
        List<Core> cores = new ArrayList<>();
        for (int ccd = 0; ccd < 16; ccd++) {
            int socket = ccd / 8;
            CpuSet cpus = CpuSet.range(8 * ccd, 8 * ccd + 7).union(CpuSet.range(128 + 8 * ccd, 128 + 8 * ccd + 7));
            chiplets.add(new Chiplet(ccd, socket, socket, cpus, 32L << 20, ChipletBasis.L3));
            caches.add(new Cache(3, CacheType.UNIFIED, 32L << 20, 64, cpus));
            for (int core = 8 * ccd; core < 8 * ccd + 8; core++) {
                cores.add(new Core(socket, core % 64, CpuSet.of(core, 128 + core), Optional.empty()));
            }
        }
        CpuSet all = CpuSet.range(0, 255);
        CpuSet socket0 = CpuSet.range(0, 63).union(CpuSet.range(128, 191));
        CpuSet socket1 = CpuSet.range(64, 127).union(CpuSet.range(192, 255));
        return Topology.builder("test:2xepyc7763", all)
                .packages(List.of(new CpuPackage(0, socket0), new CpuPackage(1, socket1)))
                .numaNodes(List.of(NumaNode.of(0, socket0, 1L << 38, Map.of(0, 10, 1, 32)), NumaNode.of(1, socket1, 1L << 38, Map.of(0, 32, 1, 10))))
                .caches(caches)
                .cores(cores)
                .chiplets(chiplets)
                .build();
    }

    /** {@code cpus} single-threaded cores sharing one L3 of {@code l3Bytes} (0: no L3 reported). */
    public static Topology singleL3(int cpus, long l3Bytes)
    {
        CpuSet all = CpuSet.range(0, cpus - 1);
        List<Core> cores = IntStream.range(0, cpus).mapToObj(cpu -> new Core(0, cpu, CpuSet.of(cpu), Optional.empty())).toList();
        List<Cache> caches = l3Bytes > 0 ? List.of(new Cache(3, CacheType.UNIFIED, l3Bytes, 64, all)) : List.of();
        return Topology.builder("test:single-l3", all)
                .packages(List.of(new CpuPackage(0, all)))
                .numaNodes(List.of(NumaNode.of(0, all, 1L << 34, Map.of(0, 10))))
                .caches(caches)
                .cores(cores)
                .chiplets(List.of(new Chiplet(0, 0, 0, all, l3Bytes, l3Bytes > 0 ? ChipletBasis.L3 : ChipletBasis.PACKAGE)))
                .build();
    }
}
