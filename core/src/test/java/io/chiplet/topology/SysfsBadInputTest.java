package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.chiplet.topology.FakeSysfs.CPU;
import static java.nio.file.Files.readString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Damaged or unusual sysfs trees: each gives an error naming the file and what was expected, or a documented unknown. */
class SysfsBadInputTest
{
    @TempDir
    Path root;

    private FakeSysfs machine()
    {
        return FakeSysfs.write(root, 2, 4, 2, 4);
    }

    @Test
    void readsTheIntactSyntheticMachine()
    {
        Topology topology = machine().read();

        assertThat(topology.online()).isEqualTo(CpuSet.range(0, 15));
        assertThat(topology.packages()).hasSize(2);
        assertThat(topology.cores()).hasSize(8);
        assertThat(topology.cores().getFirst().cpus()).isEqualTo(CpuSet.of(0, 8));
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::cpus)
                .containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
        assertThat(topology.chiplets()).extracting(Chiplet::basis).containsOnly(ChipletBasis.L3);
        assertThat(topology.numaNodes().getFirst().distances()).containsEntry(1, 32);
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void garbledOnlineCpulistNamesTheFile()
    {
        machine().file(CPU + "online", "0-3,x");

        assertThatThrownBy(() -> read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/devices/system/cpu/online: ")
                .hasMessageContaining("expected a cpulist");
    }

    @Test
    void reversedRangeInNodeCpulistNamesTheFile()
    {
        machine().file("sys/devices/system/node/node1/cpulist", "7-4");

        assertThatThrownBy(() -> read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/devices/system/node/node1/cpulist: ")
                .hasMessageContaining("reversed");
    }

    @Test
    void aCacheBeyondTheL3IsFoundOnEveryL3()
    {
        // an L4 per package, beyond the known indexes: looked for once per L3 instance, not once per core
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            String dir = CPU + "cpu" + cpu + "/cache/index4/";
            CpuSet pkg = fake.coresCpus(cpu % fake.cores() / fake.coresPerPackage * fake.coresPerPackage, fake.coresPerPackage);
            fake.file(dir + "level", "4").file(dir + "type", "Unified").file(dir + "size", "131072K").file(dir + "shared_cpu_list", pkg.toList());
        }

        assertThat(fake.read().cachesOfLevel(4)).extracting(Cache::cpus, Cache::sizeBytes).containsExactly(
                tuple(CpuSet.parseList("0-3,8-11"), 128L << 20),
                tuple(CpuSet.parseList("4-7,12-15"), 128L << 20));
    }

    @Test
    void clustersOfSeveralCoresAreReadWithTheirIds()
    {
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            int core = cpu % fake.cores();
            fake.file(CPU + "cpu" + cpu + "/topology/cluster_id", String.valueOf(10 + core / 2))
                    .file(CPU + "cpu" + cpu + "/topology/cluster_cpus_list", fake.coresCpus(core / 2 * 2, 2).toList());
        }

        assertThat(fake.read().clusters()).containsExactly(
                new Cluster(0, 10, CpuSet.parseList("0-1,8-9")),
                new Cluster(0, 11, CpuSet.parseList("2-3,10-11")),
                new Cluster(1, 12, CpuSet.parseList("4-5,12-13")),
                new Cluster(1, 13, CpuSet.parseList("6-7,14-15")));

        // clusters are optional: a garbled id makes them unknown, naming the file, and discovery goes on
        fake.file(CPU + "cpu2/topology/cluster_id", "two");
        Topology degraded = fake.read();
        assertThat(degraded.clusters()).isEmpty();
        assertThat(degraded.unknowns()).contains("clusters: sys/devices/system/cpu/cpu2/topology/cluster_id: expected an integer but found \"two\"");
    }

    @Test
    void clustersThatAreEachOneCoreAreLeftOut()
    {
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            int core = cpu % fake.cores();
            fake.file(CPU + "cpu" + cpu + "/topology/cluster_id", String.valueOf(2 * core))
                    .file(CPU + "cpu" + cpu + "/topology/cluster_cpus_list", fake.coreCpus(core).toList());
        }

        Topology topology = fake.read();

        assertThat(topology.clusters()).isEmpty();
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void garbledCpumaskNamesTheFile()
    {
        FakeSysfs fake = machine();
        fake.delete(CPU + "cpu0/cache/index3/shared_cpu_list");
        fake.file(CPU + "cpu0/cache/index3/shared_cpu_map", "0000zz0f");

        // a cache is optional: that instance becomes unknown (CPU 1 reads the same L3 from its own files)
        Topology topology = fake.read();
        assertThat(topology.unknowns()).contains("cache sys/devices/system/cpu/cpu0/cache/index3/: sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_map: "
                + "expected a cpumask of hex words like 000000ff,00000001 but found \"0000zz0f\"");
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::cpus).contains(CpuSet.parseList("4-7,12-15"));

        fake.file("sys/devices/system/node/node1/cpumap", "zz").delete("sys/devices/system/node/node1/cpulist");
        assertThatThrownBy(fake::read)
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/node/node1/cpumap: expected a cpumask of hex words like 000000ff,00000001 but found \"zz\"");
    }

    @Test
    void cpumaskIsUsedWhenTheListIsMissing()
            throws IOException
    {
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            String dir = CPU + "cpu" + cpu + "/cache/index3/";
            CpuSet shared = CpuSet.parseList(readString(root.resolve(dir + "shared_cpu_list")));
            fake.delete(dir + "shared_cpu_list").file(dir + "shared_cpu_map", shared.toMask());
        }

        assertThat(fake.read().cachesOfLevel(3)).extracting(Cache::cpus)
                .containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
    }

    @Test
    void garbledIntegerNamesTheFile()
    {
        machine().file(CPU + "cpu0/topology/physical_package_id", "zero");

        assertThatThrownBy(() -> read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/cpu0/topology/physical_package_id: expected an integer but found \"zero\"");
    }

    @Test
    void garbledCacheSizeAndTypeNameTheFile()
    {
        machine().file(CPU + "cpu0/cache/index2/size", "lots");
        assertThat(read(root).unknowns()).contains(
                "cache sys/devices/system/cpu/cpu0/cache/index2/: sys/devices/system/cpu/cpu0/cache/index2/size: expected a size like 32K of at most 1T but found \"lots\"");

        // a broken level or type loses the order of the indexes: that index and those after it are unknown
        machine().file(CPU + "cpu0/cache/index2/type", "Victim");
        Topology topology = read(root);
        assertThat(topology.unknowns()).contains(
                "caches from index2 on: sys/devices/system/cpu/cpu0/cache/index2/type: expected Data, Instruction or Unified but found \"Victim\"");
        assertThat(topology.caches()).isEmpty();
    }

    @Test
    void missingRequiredNodeCpulistNamesTheFile()
    {
        machine().delete("sys/devices/system/node/node0/cpulist");

        assertThatThrownBy(() -> read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/node/node0/cpulist: missing, and so is cpumap; expected the node's CPUs");
    }

    @Test
    void unreadableFileNamesTheFile()
            throws IOException
    {
        // tests may run as root, which ignores permission bits: a directory where a file should be is unreadable for anyone
        FakeSysfs fake = machine();
        fake.delete(CPU + "online");
        Files.createDirectory(root.resolve(CPU + "online"));

        assertThatThrownBy(fake::read)
                .isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/online: is a directory; expected a regular file");
    }

    @Test
    void emptySysIsAClearError()
            throws IOException
    {
        Files.createDirectories(root.resolve("sys"));

        assertThatThrownBy(() -> read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/devices/system/cpu/: missing; expected the kernel's CPU directory");
    }

    @Test
    void cpuDirectoryWithoutAnyCpuIsAClearError()
            throws IOException
    {
        Files.createDirectories(root.resolve(CPU));

        assertThatThrownBy(() -> read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessageContaining("expected an online or present cpulist or cpuN directories but found none");
    }

    @Test
    void missingOnlineFallsBackToPresentAndSaysSo()
    {
        Topology topology = machine().delete(CPU + "online").read();

        assertThat(topology.online()).isEqualTo(CpuSet.range(0, 15));
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("online CPUs: sys/devices/system/cpu/online is missing"));
    }

    @Test
    void vmWithoutCacheDirectoriesFallsBackToNumaNodesAndSaysSo()
    {
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            fake.delete(CPU + "cpu" + cpu + "/cache");
        }
        Topology topology = fake.read();

        assertThat(topology.caches()).isEmpty();
        assertThat(topology.unknowns())
                .contains("caches of CPUs 0-15: no sys/devices/system/cpu/cpuN/cache directory")
                .anyMatch(unknown -> unknown.startsWith("no L3 information"));
        // one node per package: the package is the domain
        assertThat(topology.chiplets()).extracting(Chiplet::cpus)
                .containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
        assertThat(topology.chiplets()).extracting(Chiplet::basis).containsOnly(ChipletBasis.PACKAGE);
    }

    @Test
    void missingNodeDirectoryMeansOneNodeWithEveryOnlineCpu()
    {
        Topology topology = machine().delete("sys/devices/system/node").read();

        assertThat(topology.numaNodes()).singleElement().satisfies(node -> {
            assertThat(node.id()).isZero();
            assertThat(node.cpus()).isEqualTo(topology.online());
        });
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("NUMA nodes: no sys/devices/system/node/nodeN directory"));
    }

    @Test
    void missingOptionalFactsBecomeUnknowns()
    {
        FakeSysfs fake = machine();
        fake.delete("sys/devices/system/node/node1/meminfo");
        fake.delete(CPU + "cpu3/topology/thread_siblings_list");
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            fake.delete(CPU + "cpu" + cpu + "/topology/physical_package_id");
            fake.delete(CPU + "cpu" + cpu + "/topology/core_siblings_list");
        }
        Topology topology = fake.read();

        assertThat(topology.numaNode(1).orElseThrow().memoryBytes()).isEmpty();
        assertThat(topology.packages()).isEmpty();
        assertThat(topology.cores()).extracting(Core::cpus).contains(CpuSet.of(3), CpuSet.of(11));
        assertThat(topology.chiplets()).extracting(Chiplet::packageId).containsOnly(-1);
        assertThat(topology.unknowns()).contains(
                "memory of NUMA node 1: sys/devices/system/node/node1/meminfo has no MemTotal",
                "package of CPUs 0-15: no physical_package_id and no package_cpus or core_siblings; they belong to no package",
                "SMT siblings of CPUs 3: no thread_siblings_list or core_cpus_list; each counts as its own core");
    }

    @Test
    void packagesWithoutIdsAreTheCpusTheirMasksNameTogether()
    {
        // s390 before socket_id and POWER partitions without ibm,chip-id: physical_package_id -1, core_siblings still the package
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            fake.file(CPU + "cpu" + cpu + "/topology/physical_package_id", "-1");
            fake.delete(CPU + "cpu" + cpu + "/cache");
        }
        Topology topology = fake.read();

        assertThat(topology.packages()).containsExactly(new CpuPackage(-1, CpuSet.parseList("0-3,8-11")), new CpuPackage(-1, CpuSet.parseList("4-7,12-15")));
        // no L3 and one node per package: each package is a chiplet, and none spans two
        assertThat(topology.chiplets()).extracting(Chiplet::cpus).containsExactly(CpuSet.parseList("0-3,8-11"), CpuSet.parseList("4-7,12-15"));
        assertThat(topology.unknowns()).contains("package ids of CPUs 0-15: physical_package_id is -1 or missing; their packages are the CPUs"
                + " package_cpus (core_siblings) names together, as hwloc reads them, with id -1");
        // the JSON contract: CPUs without a package id belong to no package; the packages are said beside it
        String json = TopologyJson.toJson(topology);
        assertThat(json).contains("\"packages\": []").contains("\"packagesWithoutId\": [\n    {\n      \"cpus\": \"0-3,8-11\"\n    },");
    }

    @Test
    void packagesSharingAnIdStayApartWhenTheirMasksSaySo()
    {
        // IA-64 without PAL topology: both sockets of a node board get the board's id, core_siblings each socket's CPUs
        FakeSysfs fake = machine();
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            fake.file(CPU + "cpu" + cpu + "/topology/physical_package_id", "512");
            fake.delete(CPU + "cpu" + cpu + "/cache");
        }
        fake.delete("sys/devices/system/node");
        Topology topology = fake.read();

        assertThat(topology.packages()).containsExactly(new CpuPackage(512, CpuSet.parseList("0-3,8-11")), new CpuPackage(512, CpuSet.parseList("4-7,12-15")));
        assertThat(topology.chiplets()).extracting(Chiplet::cpus, Chiplet::packageId).containsExactly(
                org.assertj.core.groups.Tuple.tuple(CpuSet.parseList("0-3,8-11"), 512), org.assertj.core.groups.Tuple.tuple(CpuSet.parseList("4-7,12-15"), 512));
        assertThat(topology.unknowns()).contains("package id 512: physical_package_id names 2 packages that package_cpus (core_siblings) tells apart"
                + " (0-3,8-11; 4-7,12-15); each is a package, as hwloc reads them, and they share the id");
    }

    @Test
    void perCpuOnlineFilesDecideWithoutTheGlobalListAndGarbageThereIsANamedError()
    {
        FakeSysfs fake = machine();
        fake.delete(CPU + "online");
        fake.file(CPU + "cpu3/online", "0");
        fake.file(CPU + "cpu11/online", "1");
        Topology topology = fake.read();

        assertThat(topology.online()).isEqualTo(CpuSet.parseList("0-2,4-15"));
        assertThat(topology.allowed().contains(3)).isFalse();
        assertThat(topology.chiplets()).noneMatch(chiplet -> chiplet.cpus().contains(3));

        // an empty file (a dump made without the right to read it, as hwloc's 128ia64-17n4s2c) says nothing: online, as hwloc takes it
        fake.file(CPU + "cpu3/online", "");
        Topology unreadable = fake.read();
        assertThat(unreadable.online()).isEqualTo(CpuSet.range(0, 15));
        assertThat(unreadable.unknowns()).contains("online CPUs: the cpuN/online files of CPUs 3 are empty (sys/devices/system/cpu/cpu3/online among them:"
                + " a dump that could not read them); those CPUs are taken as online, as hwloc takes them");

        fake.file(CPU + "cpu3/online", "offline");
        assertThatThrownBy(fake::read).isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/cpu3/online: expected 1 (online) or 0 (offline) but found \"offline\"");
        for (int cpu = 0; cpu < fake.cpus(); cpu++) {
            fake.file(CPU + "cpu" + cpu + "/online", "0");
        }
        assertThatThrownBy(fake::read).isInstanceOf(TopologyException.class)
                .hasMessage("sys/devices/system/cpu/cpuN/online: every CPU's says 0; expected at least one online CPU");
    }

    @Test
    void cpulessNodeInitiatorsComeFromAccess1BeforeAccess0()
    {
        // 5.10+: access0 may name a Generic Initiator (a CXL accelerator, no CPUs); access1 names the nearest CPUs
        FakeSysfs fake = machine();
        String node2 = "sys/devices/system/node/node2/";
        fake.file(node2 + "cpulist", "");
        fake.file(node2 + "meminfo", "Node 2 MemTotal:       16777216 kB\n");
        fake.file(node2 + "distance", "20 20 10");
        fake.file("sys/devices/system/node/node0/distance", "10 32 20");
        fake.file("sys/devices/system/node/node1/distance", "32 10 20");
        fake.file(node2 + "access0/initiators/node0", "");
        fake.file(node2 + "access1/initiators/node1", "");
        assertThat(fake.read().numaNode(2).orElseThrow().localCpus()).isEqualTo(CpuSet.parseList("4-7,12-15"));

        // neither: both sockets are as near (20), so hwloc's rule gives no locality, not every CPU
        fake.delete(node2 + "access0");
        fake.delete(node2 + "access1");
        Topology topology = fake.read();
        assertThat(topology.numaNode(2).orElseThrow().localCpus()).isEqualTo(CpuSet.empty());
        assertThat(topology.unknowns()).anyMatch(unknown -> unknown.startsWith("locality of NUMA node 2: it has no CPUs and no "
                + "sys/devices/system/node/node2/access1/initiators or access0/initiators, and every other node is as near (distance 20)"));
    }

    @Test
    void procSelfStatusRestrictsAllowedCpus()
    {
        Topology topology = machine().file("proc/self/status", "Name:\tx\nCpus_allowed_list:\t2-5\nMems_allowed:\t1\n").read();

        assertThat(topology.allowed()).isEqualTo(CpuSet.range(2, 5));
    }

    @Test
    void liveRootIntersectsTheInjectedAffinityMaskButASnapshotDoesNot()
    {
        AtomicInteger maskReads = new AtomicInteger();
        AffinityMaskSource mask = () -> {
            maskReads.incrementAndGet();
            return Optional.of(CpuSet.of(0));
        };
        machine();
        assertThat(SysfsTopologyReader.snapshot(root).read().allowed()).isEqualTo(CpuSet.range(0, 15));
        assertThat(maskReads).hasValue(0);

        assumeTrue(Files.isDirectory(Path.of("/sys/devices/system/cpu")), "the live test needs Linux sysfs");
        Topology live = SysfsTopologyReader.live(mask).read();
        assertThat(maskReads).hasValue(1);
        assertThat(CpuSet.of(0).containsAll(live.allowed())).isTrue();
    }

    @Test
    void machineWith4096Cpus()
    {
        // a large VM: 16 packages of 128 cores with 2 threads each, four NUMA nodes per package, no cache directories
        FakeSysfs fake = FakeSysfs.writeLean(root, 16, 128, 2);
        fake.file("sys/devices/system/node/possible", "0-63");
        for (int node = 0; node < 64; node++) {
            String dir = "sys/devices/system/node/node" + node + "/";
            fake.file(dir + "cpulist", fake.coresCpus(node * 32, 32).toList());
            fake.file(dir + "meminfo", "Node " + node + " MemTotal: 1048576 kB");
            StringBuilder distance = new StringBuilder();
            for (int other = 0; other < 64; other++) {
                distance.append(other == 0 ? "" : " ").append(other == node ? 10 : other / 4 == node / 4 ? 12 : 32);
            }
            fake.file(dir + "distance", distance.toString());
        }
        Topology topology = fake.read();

        assertThat(topology.online().size()).isEqualTo(4096);
        assertThat(topology.online().toMask()).hasSize(128 * 9 - 1);
        assertThat(topology.allowed()).isEqualTo(CpuSet.range(0, 4095));
        assertThat(topology.packages()).hasSize(16);
        assertThat(topology.packages().get(15).cpus()).isEqualTo(fake.coresCpus(1920, 128));
        assertThat(topology.cores()).hasSize(2048);
        assertThat(topology.cores().getLast().cpus()).isEqualTo(CpuSet.of(2047, 4095));
        assertThat(topology.numaNodes()).hasSize(64);
        assertThat(topology.numaNode(63).orElseThrow().distances()).hasSize(64).containsEntry(60, 12).containsEntry(0, 32);
        assertThat(topology.caches()).isEmpty();
        // no L3 information and four nodes per package: each node is a chiplet
        assertThat(topology.chiplets()).hasSize(64);
        assertThat(topology.chiplets()).extracting(Chiplet::basis).containsOnly(ChipletBasis.NUMA);
        assertThat(topology.chiplets().get(63).cpus()).isEqualTo(fake.coresCpus(2016, 32));
        assertThat(topology.chiplets().get(63).packageId()).isEqualTo(15);
        assertThat(topology.chiplets().get(63).numaNode()).isEqualTo(63);
        assertThat(topology.unknowns()).contains("caches of CPUs 0-4095: no sys/devices/system/cpu/cpuN/cache directory");
    }

    private static Topology read(Path root)
    {
        return SysfsTopologyReader.snapshot(root).read();
    }
}
