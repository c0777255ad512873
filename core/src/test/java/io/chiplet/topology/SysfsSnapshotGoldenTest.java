package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** What placement sees on each real machine: chiplets, kinds of core, cgroup limits, offline CPUs. */
class SysfsSnapshotGoldenTest
{
    @TempDir
    Path temp;

    private Topology read(String name)
    {
        return SysfsTopologyReader.snapshot(Snapshots.unpack(name, temp)).read();
    }

    private Topology read(String name, int virtualChipletCores)
    {
        return SysfsTopologyReader.snapshot(Snapshots.unpack(name, temp)).read(virtualChipletCores);
    }

    private static CpuSet stride(int first, int last, int step)
    {
        return CpuSet.of(IntStream.iterate(first, cpu -> cpu <= last, cpu -> cpu + step).toArray());
    }

    @Test
    void cascadeLakeInSnc2SplitsEachL3AlongItsNodes()
    {
        Topology topology = read("memorysidecaches");

        // two packages, one 28 MiB L3 each, two SNC nodes per package with CPUs interleaved by 4
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::sizeBytes).containsExactly(28835840L, 28835840L);
        assertThat(topology.chiplets()).containsExactly(
                new Chiplet(0, 0, 0, stride(0, 76, 4), 14417920, ChipletBasis.L3_NUMA),
                new Chiplet(1, 1, 1, stride(1, 77, 4), 14417920, ChipletBasis.L3_NUMA),
                new Chiplet(2, 0, 2, stride(2, 78, 4), 14417920, ChipletBasis.L3_NUMA),
                new Chiplet(3, 1, 3, stride(3, 79, 4), 14417920, ChipletBasis.L3_NUMA));
        assertThat(topology.numaNode(0).orElseThrow().distances()).containsEntry(2, 11).containsEntry(1, 21);
        assertThat(topology.numaNode(0).orElseThrow().memoryBytes()).hasValue(397816131584L);
        assertThat(topology.cores().getFirst().cpus()).isEqualTo(CpuSet.of(0, 40));
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void raptorLakeLaptopHasPerformanceAndEfficiencyCores()
    {
        Topology topology = read("20em64t-hybrid-1p6c2t+2ca4co1t");

        assertThat(topology.isHybrid()).isTrue();
        assertThat(topology.coreKinds()).containsExactly(
                new CoreKind(CoreKind.PERFORMANCE, 0, CpuSet.range(0, 11)),
                new CoreKind(CoreKind.EFFICIENCY, 1, CpuSet.range(12, 19)));
        assertThat(topology.cores()).hasSize(14);
        assertThat(topology.cores().getFirst()).isEqualTo(new Core(0, 0, CpuSet.of(0, 1), Optional.of(CoreKind.PERFORMANCE)));
        assertThat(topology.cores().getLast()).isEqualTo(new Core(0, 31, CpuSet.of(19), Optional.of(CoreKind.EFFICIENCY)));
        // E-cores share an L2 per module of four: the clusters
        assertThat(topology.cachesOfLevel(2)).extracting(Cache::cpus).contains(CpuSet.range(12, 15), CpuSet.range(16, 19));
        assertThat(topology.clusters()).extracting(Cluster::cpus).contains(CpuSet.range(12, 15), CpuSet.of(0, 1));
        assertThat(topology.chiplets()).containsExactly(new Chiplet(0, 0, 0, CpuSet.range(0, 19), 25165824, ChipletBasis.L3));
    }

    @Test
    void clustersThatAreEachOneCoreAreNotReported()
    {
        // x86 servers give every core a cluster (its L2); hwloc shows none either
        assertThat(read("2xepyc7763-nps1").clusters()).isEmpty();
        assertThat(read("2xspr8480-snc4").clusters()).isEmpty();
        // a hybrid's E-core modules are clusters of four cores, so every cluster stays, those of one P-core too
        assertThat(read("alderlake-i9-12900k").clusters()).extracting(Cluster::cpus)
                .hasSize(10)
                .contains(CpuSet.of(0, 1), CpuSet.range(16, 19), CpuSet.range(20, 23));
    }

    @Test
    void virtualChipletsKeepSmtSiblingsTogetherAndShareTheL3()
    {
        Topology topology = read("20em64t-hybrid-1p6c2t+2ca4co1t", 4);

        assertThat(topology.chiplets()).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.range(0, 7), 25165824L * 8 / 20, ChipletBasis.VIRTUAL),
                new Chiplet(1, 0, 0, CpuSet.range(8, 13), 25165824L * 6 / 20, ChipletBasis.VIRTUAL),
                new Chiplet(2, 0, 0, CpuSet.range(14, 17), 25165824L * 4 / 20, ChipletBasis.VIRTUAL),
                new Chiplet(3, 0, 0, CpuSet.range(18, 19), 25165824L * 2 / 20, ChipletBasis.VIRTUAL));
    }

    @Test
    void cgroupV2CpusetLimitsAllowedCpus()
    {
        Topology topology = read("32amd64-4s2n4c-cgroup");

        assertThat(topology.online()).isEqualTo(CpuSet.range(0, 31));
        assertThat(topology.allowed()).isEqualTo(CpuSet.range(0, 5));
        // chiplets describe the machine; what the cgroup allows is a separate fact
        assertThat(topology.chiplets()).hasSize(8);
        assertThat(topology.chiplets()).extracting(Chiplet::cpus)
                .containsExactlyElementsOf(IntStream.range(0, 8).mapToObj(i -> CpuSet.range(4 * i, 4 * i + 3)).toList());
        assertThat(topology.chiplets()).extracting(Chiplet::numaNode).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(topology.chiplets()).extracting(Chiplet::packageId).containsExactly(0, 0, 1, 1, 2, 2, 3, 3);
        assertThat(topology.chiplets()).extracting(Chiplet::l3Bytes).containsOnly(5240832L);
    }

    @Test
    void bulldozerHasTwoL3sPerPackageAndOneCorePerThread()
    {
        Topology topology = read("64amd64-4s2n4ca2co");

        assertThat(topology.packages()).hasSize(4);
        assertThat(topology.cores()).hasSize(64).allSatisfy(core -> assertThat(core.cpus().size()).isOne());
        assertThat(topology.chiplets()).hasSize(8).allSatisfy(chiplet -> {
            assertThat(chiplet.basis()).isEqualTo(ChipletBasis.L3);
            assertThat(chiplet.cpus().size()).isEqualTo(8);
            assertThat(chiplet.l3Bytes()).isEqualTo(6291456);
            assertThat(chiplet.numaNode()).isEqualTo(chiplet.id());
        });
        // compute units (two cores sharing an L2) stay together in virtual chiplets of two cores
        List<Chiplet> virtual = read("64amd64-4s2n4ca2co", 2).chiplets();
        assertThat(virtual).hasSize(32);
        assertThat(virtual.getFirst()).isEqualTo(new Chiplet(0, 0, 0, CpuSet.of(0, 1), 6291456 / 4, ChipletBasis.VIRTUAL));
    }

    @Test
    void itaniumCachesWhoseSharingListsAreEmptyArePrivateToTheirCore()
    {
        Topology topology = read("ia64-montecito");

        // 2 sockets x 2 cores x 2 threads, first threads first; every shared_cpu_map is empty (no PAL cache-sharing
        // information), so each 12 MiB L3 is its core's, as hwloc reads it, and each core is a chiplet
        assertThat(topology.packages()).extracting(CpuPackage::cpus).containsExactly(CpuSet.parseList("0-1,4-5"), CpuSet.parseList("2-3,6-7"));
        assertThat(topology.cores()).extracting(Core::cpus).containsExactly(CpuSet.of(0, 4), CpuSet.of(1, 5), CpuSet.of(2, 6), CpuSet.of(3, 7));
        assertThat(topology.chiplets()).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.of(0, 4), 12L << 20, ChipletBasis.L3),
                new Chiplet(1, 0, 0, CpuSet.of(1, 5), 12L << 20, ChipletBasis.L3),
                new Chiplet(2, 1, 0, CpuSet.of(2, 6), 12L << 20, ChipletBasis.L3),
                new Chiplet(3, 1, 0, CpuSet.of(3, 7), 12L << 20, ChipletBasis.L3));
        assertThat(topology.cachesOfLevel(2)).extracting(Cache::cpus).containsExactly(CpuSet.of(0, 4), CpuSet.of(1, 5), CpuSet.of(2, 6), CpuSet.of(3, 7));
        assertThat(topology.unknowns()).containsExactly("CPUs sharing caches: 8 cache directories list no CPU (sys/devices/system/cpu/cpu0/cache/index2/"
                + "shared_cpu_map is empty, as IA-64 firmware without cache-sharing information leaves it); each is taken as private to its core, as hwloc takes it");
    }

    @Test
    void offlineCpuZeroAndMissingNodeZero()
    {
        Topology topology = read("offline-cpu0-node0");

        assertThat(topology.present()).isEqualTo(CpuSet.range(0, 23));
        assertThat(topology.online()).isEqualTo(CpuSet.range(4, 20));
        assertThat(topology.offline()).isEqualTo(CpuSet.parseList("0-3,21-23"));
        assertThat(topology.allowed()).isEqualTo(topology.online());
        assertThat(topology.numaNodes()).singleElement().satisfies(node -> {
            assertThat(node.id()).isEqualTo(1);
            assertThat(node.cpus()).isEqualTo(stride(5, 19, 2));
            assertThat(node.distances()).containsEntry(0, 21).containsEntry(1, 10);
        });
        assertThat(topology.chiplets()).containsExactly(
                new Chiplet(0, 0, -1, stride(4, 20, 2), 31457280, ChipletBasis.L3),
                new Chiplet(1, 1, 1, stride(5, 19, 2), 31457280, ChipletBasis.L3));
        assertThat(topology.unknowns()).containsExactly("NUMA node of CPUs 4,6,8,10,12,14,16,18,20: no node under sys/devices/system/node/ lists them");
    }
    @Test
    void perCpuOnlineFilesSayWhichCpusRunWithoutTheGlobalList()
    {
        Topology topology = read("per-cpu-online");

        // no cpu/online, offline, present or possible: cpu5, cpu12 and cpu21 say 0, cpu0 has no online file (x86)
        assertThat(topology.present()).isEqualTo(CpuSet.range(0, 31));
        assertThat(topology.online()).isEqualTo(CpuSet.parseList("0-4,6-11,13-20,22-31"));
        assertThat(topology.offline()).isEqualTo(CpuSet.of(5, 12, 21));
        // an offline CPU is never allowed, so never pinned to
        assertThat(topology.allowed()).isEqualTo(topology.online());
        assertThat(topology.cores()).extracting(Core::cpus).contains(CpuSet.of(28)).doesNotContain(CpuSet.of(5), CpuSet.of(21));
        assertThat(topology.chiplets()).extracting(Chiplet::cpus).containsExactly(
                CpuSet.parseList("0-3,16-19"), CpuSet.parseList("4,6-7,20,22-23"), CpuSet.parseList("8-11,24-27"), CpuSet.parseList("13-15,28-31"));
        assertThat(topology.unknowns()).containsExactly("online CPUs: sys/devices/system/cpu/online is missing; taken from each "
                + "sys/devices/system/cpu/cpuN/online, as hwloc takes them (CPUs 5,12,21 are offline); no present either, so the present CPUs are the cpuN directories");
    }

    @Test
    void s390WithoutSocketIdsKeepsEachChipAPackageAndAChiplet()
    {
        Topology topology = read("s390-no-socket-id");

        // physical_package_id -1 everywhere, core_siblings the chip: 8 packages of unknown id, as hwloc reads them
        assertThat(topology.packages()).hasSize(8).allSatisfy(cpuPackage -> {
            assertThat(cpuPackage.id()).isEqualTo(-1);
            assertThat(cpuPackage.cpus().size()).isEqualTo(4);
        });
        // no L3 in sysfs on s390: chiplets are the packages, none spanning two (they were one chiplet of 32 CPUs)
        assertThat(topology.chiplets()).extracting(Chiplet::cpus).containsExactlyElementsOf(
                IntStream.range(0, 8).mapToObj(chip -> CpuSet.range(4 * chip, 4 * chip + 3)).toList());
        assertThat(topology.chiplets()).extracting(Chiplet::packageId, Chiplet::basis).containsOnly(org.assertj.core.groups.Tuple.tuple(-1, ChipletBasis.PACKAGE));
        String json = TopologyJson.toJson(topology);
        assertThat(json).contains("\"packages\": []").contains("\"cpus\": \"28-31\"\n    }\n  ],\n  \"dies\"");
    }

    @Test
    void powerPartitionWithoutChipIdsHasAPackagePerCore()
    {
        Topology topology = read("power-lpar-no-chip-id");

        // PowerVM gives no ibm,chip-id: physical_package_id -1, core_siblings the core (its L2), as hwloc reads it
        assertThat(topology.packages()).hasSize(12).extracting(CpuPackage::id).containsOnly(-1);
        assertThat(topology.packages()).extracting(CpuPackage::cpus).containsExactlyElementsOf(topology.cores().stream().map(Core::cpus).toList());
        assertThat(topology.chiplets()).hasSize(12).allSatisfy(chiplet -> {
            assertThat(chiplet.basis()).isEqualTo(ChipletBasis.L3);
            assertThat(chiplet.l3Bytes()).isEqualTo(8L << 20);
        });
        assertThat(topology.chiplets()).extracting(Chiplet::numaNode).containsExactly(0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1);
    }

    @Test
    void itaniumSocketsSharingAnIdStayApart()
    {
        Topology topology = read("ia64-madison-shared-ids");

        assertThat(topology.packages()).containsExactly(new CpuPackage(0, CpuSet.of(0)), new CpuPackage(0, CpuSet.of(1)),
                new CpuPackage(512, CpuSet.of(2)), new CpuPackage(512, CpuSet.of(3)));
        assertThat(topology.chiplets()).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.of(0), 9L << 20, ChipletBasis.L3),
                new Chiplet(1, 0, 0, CpuSet.of(1), 9L << 20, ChipletBasis.L3),
                new Chiplet(2, 512, 1, CpuSet.of(2), 9L << 20, ChipletBasis.L3),
                new Chiplet(3, 512, 1, CpuSet.of(3), 9L << 20, ChipletBasis.L3));
        assertThat(topology.unknowns()).contains("package id 0: physical_package_id names 2 packages that package_cpus (core_siblings) tells apart"
                + " (0; 1); each is a package, as hwloc reads them, and they share the id");
    }

    @Test
    void cpulessNodesWithoutInitiatorsTakeTheirNearestNodesAsHwlocDoes()
    {
        Topology topology = read("cpuless-no-initiators");
        CpuSet socket0 = CpuSet.parseList("0-55,112-167");
        CpuSet socket1 = CpuSet.parseList("56-111,168-223");

        assertThat(topology.numaNodes()).extracting(NumaNode::id, NumaNode::localCpus).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0, socket0),
                org.assertj.core.groups.Tuple.tuple(1, socket1),
                org.assertj.core.groups.Tuple.tuple(2, socket0),
                org.assertj.core.groups.Tuple.tuple(3, socket1),
                org.assertj.core.groups.Tuple.tuple(4, socket0),
                // as near to every node as to any: local to no CPU in particular (it was every CPU)
                org.assertj.core.groups.Tuple.tuple(5, CpuSet.empty()),
                // nearest node 4 (15), whose memory is socket 0's, not the two sockets at 20 (it was every CPU)
                org.assertj.core.groups.Tuple.tuple(6, socket0));
        assertThat(topology.unknowns()).contains("locality of NUMA node 5: it has no CPUs and no sys/devices/system/node/node5/access1/initiators"
                + " or access0/initiators, and every other node is as near (distance 20); local to no CPU in particular, as hwloc reads it");
        // CXL for socket 0's chiplet is node 4 (the most local); node 5 is never chosen, its locality being unknown
        assertThat(ChipletMemory.of(topology, MemoryKind.CXL_PMEM).nodeByChiplet()).containsEntry(0, 4).containsEntry(1, 1);
    }

    @Test
    void cacheListsLeavingOutTheirOwnCpuAreReadFromTheirMasks()
    {
        Topology topology = read("stale-cache-lists");

        // every index3/shared_cpu_list is CPU 0's (0-3,16-19); the masks are right, as hwloc reads them
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::cpus).containsExactly(
                CpuSet.parseList("0-3,16-19"), CpuSet.parseList("4-7,20-23"), CpuSet.parseList("8-11,24-27"), CpuSet.parseList("12-15,28-31"));
        assertThat(topology.chiplets()).hasSize(4).extracting(Chiplet::basis).containsOnly(ChipletBasis.L3);
        assertThat(topology.l3Placement()).isEqualTo(L3Placement.USED);
        assertThat(topology.unknowns()).containsExactly("CPUs sharing caches: 3 cache directories list CPUs without the CPU they belong to"
                + " (sys/devices/system/cpu/cpu4/cache/index3/shared_cpu_list (0-3,16-19) leaves out CPU 4; shared_cpu_map (4-7,20-23) read instead);"
                + " each such list is taken from its shared_cpu_map, as hwloc reads it");
    }
}
