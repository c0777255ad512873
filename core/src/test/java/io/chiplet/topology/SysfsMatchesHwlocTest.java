package io.chiplet.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every snapshot under {@code snapshots/} that has hwloc's reading beside it must read the same through
 * {@link SysfsTopologyReader}: online, present and allowed CPUs, packages, NUMA nodes, their memory and the kind hwloc
 * names (GPU memory), L3 instances and sizes, cores, and kinds of core in hwloc's rank order.
 */
class SysfsMatchesHwlocTest
{
    /** Each snapshot is unpacked once for both tests: unpacking, not reading, is most of their time. */
    @TempDir
    static Path unpacked;

    private static final Map<String, Path> ROOTS = new java.util.concurrent.ConcurrentHashMap<>();

    private static Path root(String name)
    {
        return ROOTS.computeIfAbsent(name, key -> {
            try {
                return Snapshots.unpack(key, java.nio.file.Files.createDirectories(unpacked.resolve(key + "-unpacked")));
            }
            catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    static List<String> snapshots()
    {
        return Snapshots.withHwlocReading();
    }

    @Test
    void everyShippedSnapshotIsCompared()
    {
        assertThat(snapshots()).contains(
                "20em64t-hybrid-1p6c2t+2ca4co1t",
                "32amd64-4s2n4c-cgroup",
                "64amd64-4s2n4ca2co",
                "memorysidecaches",
                "offline-cpu0-node0",
                "old-kernel-masks-only",
                "trailing-nul",
                "partial-cpufreq",
                "cpuless-hbm-cxl",
                "numa-every-node-all-cpus",
                "numa-overlap",
                "l3-overlap",
                "s390-books-drawers",
                "power8",
                "arm-midr-only",
                "gpu-coherent-memory",
                "ia64-montecito",
                "per-cpu-online",
                "s390-no-socket-id",
                "power-lpar-no-chip-id",
                "ia64-madison-shared-ids",
                "cpuless-no-initiators",
                "stale-cache-lists",
                "mask-list-conflict");
    }

    /** The snapshots whose process may allocate from fewer nodes than the machine has, and some that may use all. */
    @Test
    void allowedMemoryNodesAreTheCgroupsAndProcSelfStatussLimit()
    {
        // cgroup v2 at /cgroup/unified (proc/mounts), cpuset.mems.effective 0-5: hwloc's allowed_nodeset 0x3f
        Topology slurm = SysfsTopologyReader.snapshot(root("32amd64-4s2n4c-cgroup")).read();
        assertThat(slurm.numaNodes()).hasSize(8);
        assertThat(slurm.allowedMemoryNodes()).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(HwlocFacts.parse(Snapshots.hwlocReading("32amd64-4s2n4c-cgroup")).allowedNodes()).isEqualTo(CpuSet.range(0, 5));
        // Mems_allowed_list: 0-7 on eight nodes
        assertThat(SysfsTopologyReader.snapshot(root("2xepyc7763-nps4")).read().allowedMemoryNodes()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        // a docker container: cpuset.mems.effective 0 and Mems_allowed_list 0 on a one-node machine
        assertThat(SysfsTopologyReader.snapshot(root("container-cgroup2-cpuset")).read().allowedMemoryNodes()).containsExactly(0);
    }

    /**
     * Snapshots whose reading was taken with {@code HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1} (see snapshot-gen/regen.sh). By
     * default hwloc drops the NUMA node an NVIDIA GPU's {@code numa_status} names; we keep it (kind GPU, reported, never
     * bound to), which is what hwloc reads when asked to keep it: so these compare with that reading, not the default one.
     */
    static final Map<String, String> READ_KEEPING_GPU_MEMORY = Map.of(
            "gpu-coherent-memory", "node 252 is a Tesla V100's memory (proc/driver/nvidia/gpus/0004:04:00.0/numa_status)");

    @Test
    void gpuMemorySnapshotsAreComparedWithTheReadingThatKeepsGpuMemory()
    {
        for (String name : READ_KEEPING_GPU_MEMORY.keySet()) {
            // a default reading (HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES unset) would have no GPUMemory node at all
            assertThat(HwlocFacts.parse(Snapshots.hwlocReading(name)).numaSubtypes()).as(name + ": " + READ_KEEPING_GPU_MEMORY.get(name))
                    .containsValue("GPUMemory");
        }
        assertThat(snapshots()).containsAll(READ_KEEPING_GPU_MEMORY.keySet());
    }

    @Test
    void hwlocsReadingOfGpuMemoryReadsAsOursThroughTheXmlReader()
    {
        Topology fromXml = new HwlocXmlTopologyReader(Snapshots.hwlocReading("gpu-coherent-memory")).read(0);
        Topology fromSysfs = SysfsTopologyReader.snapshot(root("gpu-coherent-memory")).read();

        // hwloc gives node 252 the cpuset 0-15 that node 0 holds: the XML reader makes it CPU-less, local to 0-15, GPU
        assertThat(fromXml.numaNodes()).extracting(NumaNode::id, NumaNode::cpus, NumaNode::localCpus, NumaNode::kind)
                .isEqualTo(fromSysfs.numaNodes().stream().map(node -> org.assertj.core.groups.Tuple.tuple(node.id(), node.cpus(), node.localCpus(), node.kind())).toList());
        assertThat(fromXml.numaNode(252).orElseThrow().kind()).isEqualTo(MemoryKind.GPU);
    }

    /**
     * Where we know more than hwloc 2.9's Linux backend reads, and why; every other fact of these snapshots must still
     * agree. {@code SysfsRobustnessTest} checks what we read there instead.
     */
    private static final Map<String, String> KINDS_BEYOND_HWLOC = Map.of(
            "arm-midr-only", "hwloc does not read regs/identification/midr_el1: with no cpu_capacity or cpufreq it sees one kind");

    /**
     * Where hwloc's reading is the less right one: snapshots in which a mask form contradicts its list form and every
     * other file. The kernel prints both forms from one cpumask, so only a broken dump (or hwloc's hand-made
     * 40intel64-4n10c+pci-conflicts, which this one mirrors) holds them; hwloc reads the masks and keeps what it inserted
     * first, we read the lists, which agree with {@code physical_package_id}, the nodes and every other CPU's files.
     * {@link #listsOverContradictedMasks} checks both readings of them.
     */
    static final Map<String, String> LISTS_OVER_CONTRADICTED_MASKS = Map.of(
            "mask-list-conflict", "cpu2's L3 shared_cpu_map and cpu3's package_cpus/core_siblings masks read 0-3; their lists and all else say 4 sockets");

    @Test
    void listsOverContradictedMasks()
    {
        HwlocFacts hwloc = HwlocFacts.parse(Snapshots.hwlocReading("mask-list-conflict"));
        Topology topology = SysfsTopologyReader.snapshot(root("mask-list-conflict")).read();
        CpuSet socket2 = CpuSet.of(java.util.stream.IntStream.range(0, 10).map(core -> 4 * core + 2).toArray());
        CpuSet socket3 = CpuSet.of(java.util.stream.IntStream.range(0, 10).map(core -> 4 * core + 3).toArray());

        // hwloc: cpu3's package mask (0-3) hides package 3 (no CPU of it is the first of its mask), cpu2's L3 mask hides L3 2
        assertThat(hwloc.packages()).extracting(CpuPackage::id).containsExactly(0, 1, 2);
        assertThat(hwloc.l3s()).extracting(HwlocFacts.L3::cpus).doesNotContain(socket2).hasSize(3);
        // we: four sockets, each its own package, L3, node and chiplet, as physical_package_id and the nodes say
        assertThat(topology.packages()).extracting(CpuPackage::cpus).containsExactlyElementsOf(
                topology.numaNodes().stream().map(NumaNode::cpus).toList());
        assertThat(topology.packages()).extracting(CpuPackage::id, CpuPackage::cpus).contains(org.assertj.core.groups.Tuple.tuple(3, socket3));
        assertThat(topology.cachesOfLevel(3)).extracting(Cache::cpus).contains(socket2).hasSize(4);
        assertThat(topology.chiplets()).hasSize(4).extracting(Chiplet::basis).containsOnly(ChipletBasis.L3);
        // everything hwloc did keep, we read the same
        assertThat(topology.packages()).containsAll(hwloc.packages());
        assertThat(topology.cachesOfLevel(3).stream().map(cache -> new HwlocFacts.L3(cache.cpus(), cache.sizeBytes())).toList()).containsAll(hwloc.l3s());
        assertThat(topology.unknowns()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("snapshots")
    void agreesWithHwloc(String name)
    {
        HwlocFacts hwloc = HwlocFacts.parse(Snapshots.hwlocReading(name));
        Topology topology = SysfsTopologyReader.snapshot(root(name)).read();
        boolean listsOverMasks = LISTS_OVER_CONTRADICTED_MASKS.containsKey(name);

        assertThat(topology.online()).as("online CPUs").isEqualTo(hwloc.online());
        assertThat(topology.present()).as("present CPUs (hwloc's complete cpuset)").isEqualTo(hwloc.complete());
        assertThat(topology.allowed()).as("allowed CPUs").isEqualTo(hwloc.allowed());
        assertThat(topology.allowedMemoryNodes()).as("allowed memory nodes (hwloc's allowed_nodeset)")
                .containsExactlyElementsOf(hwloc.allowedNodes().stream().boxed().toList());
        assertThat(new HwlocXmlTopologyReader(Snapshots.hwlocReading(name)).read(0).allowedMemoryNodes()).as("allowed memory nodes through the XML reader")
                .isEqualTo(topology.allowedMemoryNodes());
        if (!listsOverMasks) {
            assertThat(topology.packages()).as("packages (id -1 where the kernel gives none)").isEqualTo(hwloc.packages());
        }
        // hwloc gives a CPU-less node (HBM, CXL) the CPUs it is local to; we keep those apart, as localCpus
        assertThat(topology.numaNodes().stream().collect(Collectors.toMap(NumaNode::id, NumaNode::localCpus)))
                .as("NUMA nodes and the CPUs local to them").isEqualTo(hwloc.numaNodes());
        assertThat(topology.numaNodes()).as("a CPU in one node at most").allSatisfy(node -> assertThat(topology.numaNodes())
                .filteredOn(other -> other.id() != node.id()).noneMatch(other -> other.cpus().intersects(node.cpus())));
        assertThat(topology.numaNodes().stream().filter(node -> node.memoryBytes().isPresent())
                .collect(Collectors.toMap(NumaNode::id, node -> node.memoryBytes().getAsLong())))
                .as("NUMA node memory").isEqualTo(hwloc.numaMemory());
        // hwloc 2.9's Linux backend names one kind of memory, GPUMemory (kept only when asked, READ_KEEPING_GPU_MEMORY);
        // HBM and CXL it leaves unnamed, where we may know more (cpuless-hbm-cxl), but a node with CPUs is DRAM to both
        assertThat(topology.numaNodes().stream().filter(node -> node.kind() == MemoryKind.GPU).map(NumaNode::id).toList())
                .as("GPU memory nodes").isEqualTo(hwloc.numaSubtypes().entrySet().stream()
                        .filter(entry -> entry.getValue().equals("GPUMemory")).map(Map.Entry::getKey).toList());
        assertThat(topology.numaNodes()).filteredOn(NumaNode::hasCpus).extracting(NumaNode::kind).as("nodes with CPUs").containsOnly(MemoryKind.DRAM);
        if (topology.l3Placement() == L3Placement.CONTRADICTORY) {
            // the snapshot's L3 lists contradict each other: hwloc keeps the one it inserted first, we drop both and say
            // which files disagree (SysfsRobustnessTest); every L3 we keep hwloc keeps too, and no CPU sits in two
            assertThat(hwloc.l3s()).as("L3 instances of a contradictory snapshot").containsAll(
                    topology.cachesOfLevel(3).stream().map(cache -> new HwlocFacts.L3(cache.cpus(), cache.sizeBytes())).toList());
            assertThat(hwloc.l3s()).hasSizeGreaterThan(topology.cachesOfLevel(3).size());
        }
        else if (!listsOverMasks) {
            assertThat(topology.cachesOfLevel(3).stream().map(cache -> new HwlocFacts.L3(cache.cpus(), cache.sizeBytes())).toList())
                    .as("L3 instances").isEqualTo(hwloc.l3s());
        }
        assertThat(topology.cores().stream().map(Core::cpus).toList()).as("cores").isEqualTo(hwloc.cores());
        if (KINDS_BEYOND_HWLOC.containsKey(name)) {
            assertThat(hwloc.kinds()).as("hwloc's kinds on " + name).hasSizeLessThanOrEqualTo(1);
            assertThat(topology.coreKinds()).as("kinds from evidence hwloc does not read").allSatisfy(kind -> assertThat(kind.model()).isPresent());
        }
        else if (hwloc.kinds().size() <= 1) {
            assertThat(topology.coreKinds()).as("kinds of core (all alike)").isEmpty();
        }
        else {
            assertThat(topology.coreKinds().stream().map(CoreKind::cpus).toList()).as("kinds of core, most performant first").isEqualTo(hwloc.kinds());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("snapshots")
    void chipletsPartitionOnlineCpusWithinPackagesL3sAndNodes(String name)
    {
        Topology topology = SysfsTopologyReader.snapshot(root(name)).read();

        CpuSet union = CpuSet.empty();
        for (Chiplet chiplet : topology.chiplets()) {
            assertThat(union.intersects(chiplet.cpus())).as("chiplet %s overlaps another", chiplet.id()).isFalse();
            union = union.union(chiplet.cpus());
            for (CpuPackage cpuPackage : topology.packages()) {
                assertThat(!cpuPackage.cpus().intersects(chiplet.cpus()) || cpuPackage.cpus().containsAll(chiplet.cpus()))
                        .as("chiplet %s inside package %s", chiplet.id(), cpuPackage.id()).isTrue();
            }
            for (Cache l3 : topology.cachesOfLevel(3)) {
                assertThat(!l3.cpus().intersects(chiplet.cpus()) || l3.cpus().containsAll(chiplet.cpus()))
                        .as("chiplet %s inside an L3", chiplet.id()).isTrue();
            }
            for (NumaNode node : topology.numaNodes()) {
                assertThat(!node.cpus().intersects(chiplet.cpus()) || node.cpus().containsAll(chiplet.cpus()))
                        .as("chiplet %s inside node %s", chiplet.id(), node.id()).isTrue();
            }
        }
        assertThat(union).isEqualTo(topology.online());
        assertThat(topology.chiplets()).extracting(Chiplet::id).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, topology.chiplets().size()).boxed().toList());
        assertThat(topology.chiplets()).isSortedAccordingTo(java.util.Comparator.comparingInt(chiplet -> chiplet.cpus().first()));
    }
}
