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
}
