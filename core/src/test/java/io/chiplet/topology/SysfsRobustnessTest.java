package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.chiplet.topology.FakeSysfs.CPU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The kinds of input that broke discovery in issue 15, one test per kind, on a synthetic machine or a snapshot. */
class SysfsRobustnessTest
{
    private static final String NODE = "sys/devices/system/node/";

    @TempDir
    Path root;

    private FakeSysfs machine()
    {
        return FakeSysfs.write(root, 2, 4, 2, 4);
    }

    @Test
    void everySetIsReadFromItsMaskWhenTheListIsMissing()
    {
        FakeSysfs fake = machine();
        for (int node = 0; node < 2; node++) {
            CpuSet cpus = CpuSet.parseList(node == 0 ? "0-3,8-11" : "4-7,12-15");
            fake.delete(NODE + "node" + node + "/cpulist").file(NODE + "node" + node + "/cpumap", cpus.toMask());
        }
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            String topology = CPU + "cpu" + cpu + "/topology/";
            CpuSet siblings = CpuSet.parseList(read(topology + "thread_siblings_list"));
            CpuSet pkg = CpuSet.parseList(read(topology + "core_siblings_list"));
            fake.delete(topology + "thread_siblings_list").file(topology + "thread_siblings", siblings.toMask());
            fake.delete(topology + "core_siblings_list").file(topology + "core_siblings", pkg.toMask());
        }
        Topology topology = fake.read();

        assertThat(topology.numaNodes()).extracting(NumaNode::cpus).containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
        assertThat(topology.cores().get(0).cpus()).isEqualTo(CpuSet.of(0, 8));
        assertThat(topology.packages()).extracting(CpuPackage::cpus).containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void aNodeWithNeitherListNorMaskNamesBoth()
    {
        machine().delete(NODE + "node1/cpulist");

        assertThatThrownBy(() -> SysfsTopologyReader.snapshot(root).read())
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/node/node1/cpulist: missing, and so is cpumap; expected the node's CPUs");
    }

    @Test
    void valuesEndAtTheFirstNewlineOrNul()
            throws IOException
    {
        FakeSysfs fake = machine();
        Files.writeString(root.resolve(CPU + "online"), "0-15\n\0");
        Files.writeString(root.resolve(CPU + "cpu0/topology/core_siblings_list"), "0-3,8-11\0garbage");
        Files.writeString(root.resolve(CPU + "cpu0/cache/index3/size"), "32768K\n\0\0");

        Topology topology = fake.read();

        assertThat(topology.online()).isEqualTo(CpuSet.range(0, 15));
        assertThat(topology.cachesOfLevel(3).get(0).sizeBytes()).isEqualTo(32L << 20);
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void nonAsciiDigitsAreRefusedAndShownEscaped()
    {
        machine().file(CPU + "online", "0-\u0663");

        assertThatThrownBy(() -> SysfsTopologyReader.snapshot(root).read())
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/online: expected a cpulist like 0-3,8 but found \"0-\\u0663\"");
    }

    @Test
    void anOverflowingOrUnbelievableCacheSizeMakesThatCacheUnknown()
    {
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            fake.file(CPU + "cpu" + cpu + "/cache/index3/size", cpu % 8 < 4 ? "99999999999999999K" : "9999999999999G");
        }

        Topology topology = fake.read();

        assertThat(topology.cachesOfLevel(3)).isEmpty();
        assertThat(topology.unknowns()).contains(
                "cache sys/devices/system/cpu/cpu0/cache/index3/: sys/devices/system/cpu/cpu0/cache/index3/size: expected a size like 32K of at most 1T but found \"99999999999999999K\"",
                "cache sys/devices/system/cpu/cpu4/cache/index3/: sys/devices/system/cpu/cpu4/cache/index3/size: expected a size like 32K of at most 1T but found \"9999999999999G\"");
        // the L3s are unknown, the rest is not: chiplets fall back to the NUMA nodes (here the packages), and L2s are still there
        assertThat(topology.chiplets()).hasSize(2).extracting(Chiplet::basis).doesNotContain(ChipletBasis.L3);
        assertThat(topology.cachesOfLevel(2)).hasSize(8);
    }

    @Test
    void oneUnreadableCacheDirectoryMakesOnlyThatCacheUnknown()
            throws IOException
    {
        FakeSysfs fake = machine();
        fake.delete(CPU + "cpu4/cache/index3/shared_cpu_list");
        Files.createDirectory(root.resolve(CPU + "cpu4/cache/index3/shared_cpu_list"));

        // another CPU of that L3 still describes it: the broken file is named, the cache is known from CPU 5's files
        Topology topology = fake.read();
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::cpus).containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
        assertThat(topology.unknowns()).contains("cache sys/devices/system/cpu/cpu4/cache/index3/: sys/devices/system/cpu/cpu4/cache/index3/shared_cpu_list: is a directory; expected a regular file");

        for (int cpu : CpuSet.parseList("5-7,12-15").toArray()) {
            fake.delete(CPU + "cpu" + cpu + "/cache/index3");
            Files.createDirectories(root.resolve(CPU + "cpu" + cpu + "/cache/index3/shared_cpu_list"));
        }
        topology = fake.read();
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::cpus).containsExactly(CpuSet.parseList("0-3,8-11"));
        assertThat(topology.chiplets()).extracting(Chiplet::cpus).contains(CpuSet.parseList("0-3,8-11"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aFifoIsRefusedWithoutBlocking()
            throws Exception
    {
        machine().delete(CPU + "online");
        assumeTrue(new ProcessBuilder("mkfifo", root.resolve(CPU + "online").toString()).start().waitFor() == 0, "mkfifo works here");

        assertThatThrownBy(() -> SysfsTopologyReader.snapshot(root).read())
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/online: is not a regular file (a FIFO, device or socket); expected a regular file");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLinkToDevZeroIsRefusedAndDegradesOnlyWhatNeedsIt()
            throws IOException
    {
        FakeSysfs fake = machine();
        fake.delete(NODE + "node0/meminfo");
        Files.createSymbolicLink(root.resolve(NODE + "node0/meminfo"), Path.of("/dev/zero"));

        Topology topology = fake.read();

        assertThat(topology.numaNode(0).orElseThrow().memoryBytes()).isEmpty();
        assertThat(topology.unknowns()).contains(
                "memory of NUMA node 0: sys/devices/system/node/node0/meminfo: is not a regular file (a FIFO, device or socket); expected a regular file");
    }

    @Test
    void aSymlinkLoopAndAnOversizeFileNameTheFile()
            throws IOException
    {
        FakeSysfs fake = machine();
        fake.delete(CPU + "online");
        Files.createSymbolicLink(root.resolve(CPU + "online"), Path.of("online"));
        assertThatThrownBy(fake::read)
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/devices/system/cpu/online: could not be read (");

        Files.delete(root.resolve(CPU + "online"));
        Files.write(root.resolve(CPU + "online"), new byte[SysfsFiles.MAX_ATTRIBUTE_BYTES + 1]);
        assertThatThrownBy(fake::read)
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/online: holds more than 65536 bytes; expected a small kernel file");
    }

    @Test
    void cpufreqOnSomeCoresOnlyIsNoEvidenceOfAnotherKind()
    {
        FakeSysfs fake = machine();
        for (int cpu = 4; cpu < fake.cpus(); cpu++) {
            fake.delete(CPU + "cpu" + cpu + "/cpufreq");
        }
        Topology topology = fake.read();

        assertThat(topology.coreKinds()).isEmpty();
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("kinds of core: CPUs 4-7,12-15 have no cpufreq/cpuinfo_max_freq"));
    }

    @Test
    void differentArmMidrPartsAreDifferentKindsNamedAndRankedByDesign(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("arm-midr-only", temp)).read();

        assertThat(topology.coreKinds()).containsExactly(
                new CoreKind(CoreKind.PERFORMANCE, 0, CpuSet.parseList("4-7"), java.util.Optional.of("Cortex-A76")),
                new CoreKind(CoreKind.EFFICIENCY, 1, CpuSet.parseList("0-3"), java.util.Optional.of("Cortex-A55")));
        assertThat(topology.cores().get(4).kind()).contains(CoreKind.PERFORMANCE);
        assertThat(TopologyJson.toJson(topology)).contains("\"model\": \"Cortex-A76\"");
    }

    @Test
    void aMidrMissingOnSomeCpusIsNoEvidenceOfAnotherKind(@TempDir Path temp) throws IOException
    {
        Path snapshot = Snapshots.unpack("arm-midr-only", temp);
        Files.delete(snapshot.resolve(CPU + "cpu5/regs/identification/midr_el1"));

        Topology topology = SysfsTopologyReader.snapshot(snapshot).read();

        assertThat(topology.coreKinds()).isEmpty();
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("kinds of core: CPUs 5 have no regs/identification/midr_el1 where others have one"));
    }

    @Test
    void aGarbledMidrLeavesKindsUnknownNamingTheFile(@TempDir Path temp) throws IOException
    {
        Path snapshot = Snapshots.unpack("arm-midr-only", temp);
        Files.writeString(snapshot.resolve(CPU + "cpu6/regs/identification/midr_el1"), "0x0000000041\u0663fd0b0\n");

        Topology topology = SysfsTopologyReader.snapshot(snapshot).read();

        assertThat(topology.coreKinds()).isEmpty();
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("kinds of core: " + CPU + "cpu6/regs/identification/midr_el1: expected a MIDR"));
    }

    @Test
    void cpuLessNodesAreLocalToTheirInitiatorsAndHbmIsChosenPerChiplet(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("cpuless-hbm-cxl", temp)).read();

        assertThat(topology.numaNodes()).extracting(NumaNode::id, NumaNode::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0, MemoryKind.DRAM), org.assertj.core.groups.Tuple.tuple(1, MemoryKind.DRAM),
                org.assertj.core.groups.Tuple.tuple(2, MemoryKind.HBM), org.assertj.core.groups.Tuple.tuple(3, MemoryKind.HBM),
                org.assertj.core.groups.Tuple.tuple(4, MemoryKind.CXL_PMEM));
        CpuSet socket0 = CpuSet.parseList("0-55,112-167");
        assertThat(topology.numaNode(2).orElseThrow().localCpus()).isEqualTo(socket0);
        assertThat(topology.numaNode(2).orElseThrow().cpus()).isEqualTo(CpuSet.empty());
        for (Chiplet chiplet : topology.chiplets()) {
            boolean onSocket0 = socket0.containsAll(chiplet.cpus());
            assertThat(topology.memoryNodeFor(chiplet, MemoryKind.HBM)).isEqualTo(onSocket0 ? 2 : 3);
            assertThat(topology.memoryNodeFor(chiplet, MemoryKind.CXL_PMEM)).isEqualTo(onSocket0 ? 4 : chiplet.numaNode());
            assertThat(topology.memoryNodeFor(chiplet, MemoryKind.DRAM)).isEqualTo(chiplet.numaNode());
        }
        assertThat(TopologyJson.toJson(topology)).contains("\"memoryKind\": \"hbm\"", "\"localCpus\": \"0-55,112-167\"");
    }

    @Test
    void aCpuLessNodeWithoutInitiatorsIsLocalToTheNearestNodeAndOfUnknownKind()
    {
        FakeSysfs fake = machine();
        fake.file(NODE + "node2/cpulist", "").file(NODE + "node2/meminfo", "Node 2 MemTotal: 1024 kB")
                .file(NODE + "node2/distance", "40 17 10")
                .file(NODE + "node0/distance", "10 32 40").file(NODE + "node1/distance", "32 10 17").file(NODE + "possible", "0-2");

        Topology topology = fake.read();

        NumaNode node2 = topology.numaNode(2).orElseThrow();
        assertThat(node2.localCpus()).isEqualTo(CpuSet.parseList("4-7,12-15"));
        assertThat(node2.kind()).isEqualTo(MemoryKind.UNKNOWN);
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("kind of memory of NUMA node 2: "));
        Chiplet onNode1 = topology.chipletOf(4).orElseThrow();
        assertThat(topology.memoryNodeFor(onNode1, MemoryKind.HBM)).as("unknown kind is never chosen").isEqualTo(1);
    }

    @Test
    void nodesThatOverlapAreDroppedSoThatEveryCpuHasOneNode(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("numa-every-node-all-cpus", temp)).read();

        assertThat(topology.numaNodes()).extracting(NumaNode::id).containsExactly(0);
        assertThat(topology.numaNodes().get(0).distances()).containsOnlyKeys(0);
        assertThat(topology.unknowns()).contains("NUMA node 7: sys/devices/system/node/node7/cpulist (0-255) overlaps sys/devices/system/node/node0/cpulist (0-255); "
                + "node 7 dropped, as hwloc drops it, so that no CPU sits in two nodes");
        assertThat(topology.chiplets()).allMatch(chiplet -> chiplet.numaNode() == 0);
    }

    @Test
    void overlappingL3ListsDropBothInstancesNamingBothFilesAndKeepTheOthers(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("l3-overlap", temp)).read();

        // CPU 8 lists 0-15,128-143 as its L3, CPU 0 lists 0-7,128-135: neither is believed, the other 14 CCDs' L3s are
        assertThat(topology.cachesOfLevel(3)).hasSize(14).noneMatch(l3 -> l3.cpus().intersects(CpuSet.parseList("0-15,128-143")));
        assertThat(topology.unknowns()).contains("L3 caches: sys/devices/system/cpu/cpu0/cache/index3/ (0-7,128-135) and "
                + "sys/devices/system/cpu/cpu8/cache/index3/ (0-15,128-143) overlap without being equal; both are dropped, so CPUs 0-15,128-143 "
                + "have no L3 unified cache; the level's other caches are kept");
        // the two CCDs whose files disagree make one chiplet of their package and node, with no L3; the JSON says so
        assertThat(topology.chiplets()).hasSize(15).first().isEqualTo(new Chiplet(0, 0, 0, CpuSet.parseList("0-15,128-143"), 0, ChipletBasis.PACKAGE));
        assertThat(topology.chiplets().subList(1, 15)).extracting(Chiplet::basis).containsOnly(ChipletBasis.L3);
        assertThat(topology.l3Placement()).isEqualTo(L3Placement.CONTRADICTORY);
        assertThat(TopologyJson.toJson(topology)).contains("\"l3Placement\": \"contradictory\"");
    }

    @Test
    void s390PackagesComeFromCoreSiblingsAndANegativeDieIdMeansNoDies(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("s390-books-drawers", temp)).read();

        assertThat(topology.packages()).hasSize(8);
        assertThat(topology.dies()).isEmpty();
        assertThat(topology.chiplets()).hasSize(8).extracting(Chiplet::basis).containsOnly(ChipletBasis.PACKAGE);
    }

    private static final String GPU_STATUS = "proc/driver/nvidia/gpus/0004:04:00.0/numa_status";
    private static final String GPU_DEVICE = "sys/bus/pci/devices/0004:04:00.0";

    @Test
    void gpuMemoryIsReportedLocalToItsGpusCpusAndNeverChosenForBinding(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("gpu-coherent-memory", temp)).read();

        assertThat(topology.numaNodes()).extracting(NumaNode::id, NumaNode::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple(0, MemoryKind.DRAM), org.assertj.core.groups.Tuple.tuple(8, MemoryKind.DRAM),
                org.assertj.core.groups.Tuple.tuple(252, MemoryKind.GPU));
        NumaNode gpu = topology.numaNode(252).orElseThrow();
        assertThat(gpu.cpus()).isEqualTo(CpuSet.empty());
        assertThat(gpu.localCpus()).as("the GPU's PCI local_cpus: chip 0").isEqualTo(CpuSet.range(0, 15));
        assertThat(gpu.memoryBytes()).hasValue((16L * 1024 * 1024 - 253_952) * 1024);
        assertThat(topology.chiplets()).hasSize(8).extracting(Chiplet::numaNode).containsOnly(0, 8);
        for (MemoryKind kind : java.util.List.of(MemoryKind.DRAM, MemoryKind.HBM, MemoryKind.CXL_PMEM)) {
            assertThat(topology.chiplets()).allSatisfy(chiplet -> assertThat(topology.memoryNodeFor(chiplet, kind)).isEqualTo(chiplet.numaNode()));
        }
        assertThatThrownBy(() -> ChipletMemory.of(topology, MemoryKind.GPU)).isInstanceOf(IllegalArgumentException.class);
        assertThat(TopologyJson.toJson(topology)).contains("\"memoryKind\": \"gpu\"");
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void gpuMemoryWithoutItsPciDeviceAsNearToEveryNodeIsLocalToNoCpuInParticular(@TempDir Path temp)
            throws IOException
    {
        Path snapshot = Snapshots.unpack("gpu-coherent-memory", temp);
        Files.delete(snapshot.resolve(GPU_DEVICE));

        Topology topology = SysfsTopologyReader.snapshot(snapshot).read();

        NumaNode gpu = topology.numaNode(252).orElseThrow();
        assertThat(gpu.kind()).isEqualTo(MemoryKind.GPU);
        // distance 80 to both other nodes: hwloc's fallback from distances gives it no CPUs (cpuset 0x0 with
        // HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1), and so do we, rather than every CPU
        assertThat(gpu.localCpus()).isEqualTo(CpuSet.empty());
        assertThat(topology.unknowns()).containsExactly("locality of GPU memory node 252: " + GPU_DEVICE
                + "/local_cpus is missing; taken from initiators or distances",
                "locality of NUMA node 252: it has no CPUs and no sys/devices/system/node/node252/access1/initiators or access0/initiators,"
                        + " and every other node is as near (distance 80); local to no CPU in particular, as hwloc reads it");
    }

    @Test
    void aGarbledNumaStatusLeavesTheNodeOfUnknownKindNamingTheFile(@TempDir Path temp)
            throws IOException
    {
        Path snapshot = Snapshots.unpack("gpu-coherent-memory", temp);
        Files.delete(snapshot.resolve(GPU_STATUS));
        Files.writeString(snapshot.resolve(GPU_STATUS), "Node: \u0662\u0665\u0662\nStatus: online\n");

        Topology topology = SysfsTopologyReader.snapshot(snapshot).read();

        // hwloc's atoi would read 0 here and call node 0 GPU memory; the node is left unknown instead
        assertThat(topology.numaNode(252).orElseThrow().kind()).isEqualTo(MemoryKind.UNKNOWN);
        assertThat(topology.numaNode(0).orElseThrow().kind()).isEqualTo(MemoryKind.DRAM);
        assertThat(topology.unknowns()).contains("GPU memory of 0004:04:00.0: " + GPU_STATUS
                + ": expected an integer but found \"\\u0662\\u0665\\u0662\"");
    }

    @Test
    void aNumaStatusOfNoNodeOrOfAnotherNodeMakesNoGpuMemory()
    {
        assertThat(SysfsNumaReader.numaStatusNode("f", "Node: -1\nStatus: offline\n")).isEmpty();
        assertThat(SysfsNumaReader.numaStatusNode("f", "Status: offline\n")).isEmpty();
        assertThat(SysfsNumaReader.numaStatusNode("f", "Node:\t252\0junk")).hasValue(252);
        assertThatThrownBy(() -> SysfsNumaReader.numaStatusNode("f", "Node: 99999999999\n")).isInstanceOf(TopologyException.class).hasMessageStartingWith("f: ");
    }

    /**
     * Every file the GPU memory comes from, broken every way the issue lists: discovery degrades and never hangs, and
     * names the file unless it is merely absent (or an empty directory): then there is no GPU memory, or its locality
     * comes from distances, and that is said.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void gpuMemoryFilesBrokenEveryWayDegradeNamingTheFile(@TempDir Path temp)
            throws Exception
    {
        Path snapshot = Snapshots.unpack("gpu-coherent-memory", temp);
        java.util.List<String> targets = java.util.List.of(GPU_STATUS, "proc/driver/nvidia/gpus/0004:04:00.0", "proc/driver/nvidia/gpus",
                GPU_DEVICE + "/local_cpulist", GPU_DEVICE + "/local_cpus", GPU_DEVICE);
        java.util.List<String> kinds = java.util.List.of("missing", "directory", "symlink loop", "link to /dev/zero", "oversize", "fifo", "not UTF-8");
        Path list = snapshot.resolve(GPU_DEVICE + "/local_cpulist");
        // kept out of the snapshot, where a directory listing would see them
        Path listSaved = temp.resolve("local_cpulist.saved");
        for (String target : targets) {
            // the mask is read only without the list, as on kernels before local_cpulist
            if (target.endsWith("/local_cpus")) {
                Files.move(list, listSaved);
            }
            Path path = snapshot.resolve(target);
            Path saved = temp.resolve(path.getFileName() + ".saved");
            for (String kind : kinds) {
                Files.move(path, saved);
                switch (kind) {
                    case "missing" -> {}
                    case "directory" -> Files.createDirectory(path);
                    case "symlink loop" -> Files.createSymbolicLink(path, path.getFileName());
                    case "link to /dev/zero" -> Files.createSymbolicLink(path, Path.of("/dev/zero"));
                    case "oversize" -> Files.write(path, new byte[SysfsFiles.MAX_TABLE_BYTES + 1]);
                    case "fifo" -> assumeTrue(new ProcessBuilder("mkfifo", path.toString()).start().waitFor() == 0, "mkfifo works here");
                    default -> Files.write(path, new byte[] {'N', 'o', 'd', 'e', ':', ' ', (byte) 0xff, '\n'});
                }
                Topology topology = SysfsTopologyReader.snapshot(snapshot).read();
                String change = kind + " at " + target;
                assertThat(topology.numaNode(252).orElseThrow().kind()).as(change).isIn(MemoryKind.GPU, MemoryKind.UNKNOWN);
                assertThat(topology.unknowns()).as(change).allSatisfy(unknown -> assertThat(unknown).matches("[ -~]*"));
                if (!kind.equals("missing") && !kind.equals("directory")) {
                    assertThat(topology.unknowns()).as(change).anyMatch(unknown -> unknown.contains(target));
                }
                if (Files.isDirectory(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.delete(path);
                }
                else {
                    Files.deleteIfExists(path);
                }
                Files.move(saved, path);
            }
            if (target.endsWith("/local_cpus")) {
                Files.move(listSaved, list);
            }
        }
    }

    private String read(String relative)
    {
        try {
            return Files.readString(root.resolve(relative)).strip();
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
