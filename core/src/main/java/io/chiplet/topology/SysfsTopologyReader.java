package io.chiplet.topology;

import io.chiplet.topology.SysfsCpuReader.CpuTopology;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

import static io.chiplet.topology.SysfsNumaReader.NODE_DIR;
import static java.util.Objects.requireNonNull;

/**
 * Reads a machine's topology from Linux sysfs and procfs, every file relative to a filesystem root: {@code /} for
 * the live machine, or the folder holding a snapshot's {@code sys/} and {@code proc/} (hwloc's
 * {@code HWLOC_FSROOT} convention). A snapshot never consults the machine this runs on; the live root also
 * intersects the allowed CPUs with the process affinity mask from the given {@link AffinityMaskSource}.
 *
 * <p>Required facts are the CPU directory, a list of online (or present) CPUs, each CPU's package and sibling sets
 * and each node's CPUs; one that is malformed or unreadable is a {@link TopologyException} naming the file relative to
 * the root, what was expected and what it held (escaped on one line). Every CPU set is read from its list form or,
 * missing that, its mask form, and every value up to its first newline or NUL. Only regular files of a bounded size
 * are read. An optional fact whose files are broken (a cache, dies, clusters, kinds of core, a node's memory,
 * distances, the cgroup) is left unknown with the file and the reason; contradictory NUMA nodes or cache lists are
 * dropped the same way, so that no CPU sits in two nodes or two chiplets. Optional facts that are absent become a
 * sentence in {@link Topology#unknowns()}:
 * <ul>
 * <li>no {@code cache/} directories (many VMs): no caches, chiplets fall back to NUMA node, cluster, die or package;</li>
 * <li>no global {@code online} list: each CPU's {@code cpuN/online} says whether it runs (none: it does), as hwloc reads it;</li>
 * <li>{@code physical_package_id} -1 or missing: the package is still the CPUs {@code package_cpus} ({@code core_siblings})
 *     names together, with id -1, as hwloc reads it; with neither, the CPU belongs to no package;</li>
 * <li>no {@code thread_siblings_list} nor {@code core_cpus_list}: each CPU is its own core;</li>
 * <li>no {@code sys/devices/system/node}: one node 0 holding every online CPU, its memory from {@code proc/meminfo};</li>
 * <li>a node without {@code meminfo} or {@code distance}: unknown memory size, no distances;</li>
 * <li>online CPUs that no node lists: their chiplet's NUMA node is -1.</li>
 * </ul>
 *
 * <p>Clusters that are each exactly one core (x86 servers give every core a cluster, its L2) are not reported: they
 * say nothing a core does not, and hwloc drops them too. Clusters are kept, all of them, when any one is not a core
 * (ARM clusters, hybrid E-core modules). A cluster's CPUs are its {@code cluster_cpus_list}.
 *
 * <p>Speed matters (a planner may re-read the topology; 4096-CPU machines exist), and opening a file is the cost, so
 * the reader reads each fact once per group rather than per CPU where the kernel allows: a package's CPUs come from
 * one {@code package_cpus_list}, a core's siblings share their core's facts, a cluster is read once by its first
 * CPU and its id only when clusters are reported, and a cache instance is read once by its first uncovered CPU. The
 * kernel's {@code offline} file is not read: it also lists possible CPUs that are not present, so offline CPUs are
 * {@code present - online}.
 *
 * <p>This class is the orchestrator: one reader per sysfs area does the reading ({@link SysfsCpuReader} for CPUs,
 * packages, dies, clusters and cores, {@link SysfsCacheReader}, {@link SysfsCoreKindReader}, {@link SysfsNumaReader}
 * for nodes and their kinds of memory, {@link ProcessCpus} for the allowed CPUs and memory nodes), all writing to one
 * {@link Unknowns}; {@link ChipletDerivation} then derives the chiplets.
 */
public final class SysfsTopologyReader
{
    private final Path root;
    private final Optional<AffinityMaskSource> liveAffinity;

    private SysfsTopologyReader(Path root, Optional<AffinityMaskSource> liveAffinity)
    {
        this.root = requireNonNull(root, "root is null");
        this.liveAffinity = requireNonNull(liveAffinity, "liveAffinity is null");
    }

    /** Reads a snapshot whose {@code sys/} and {@code proc/} sit under {@code fsRoot}; the live machine is never consulted. */
    public static SysfsTopologyReader snapshot(Path fsRoot)
    {
        return new SysfsTopologyReader(fsRoot, Optional.empty());
    }

    /** Reads the live machine; the allowed CPUs also honour the affinity mask {@code affinity} reports. */
    public static SysfsTopologyReader live(AffinityMaskSource affinity)
    {
        return new SysfsTopologyReader(Path.of("/"), Optional.of(requireNonNull(affinity, "affinity is null")));
    }

    public Topology read()
    {
        return read(0);
    }

    /**
     * One discovery: its own {@link SysfsFiles} (which reuses its buffers and open directories) and {@link Unknowns}
     * let several threads share a reader.
     *
     * @param virtualChipletCores when positive, split every chiplet into virtual chiplets of this many physical cores
     * @throws TopologyException naming the file when a required fact is missing or any fact is malformed
     */
    public Topology read(int virtualChipletCores)
    {
        if (virtualChipletCores < 0) {
            throw new IllegalArgumentException("virtualChipletCores must not be negative: " + virtualChipletCores);
        }
        try (SysfsFiles files = SysfsFiles.open(root)) {
            Unknowns unknowns = Unknowns.degrading();
            CpuTopology cpus = new SysfsCpuReader(files, unknowns).read();
            CpuSet online = cpus.online();
            List<Cache> caches = new SysfsCacheReader(files, unknowns).read(online, cpus.cores());
            List<CoreKind> coreKinds = unknowns.degrade("kinds of core", () -> new SysfsCoreKindReader(files, unknowns).read(online, cpus.cores())).orElse(List.of());
            List<Core> cores = SysfsCoreKindReader.withKinds(cpus.cores(), coreKinds);
            List<NumaNode> nodes = new SysfsNumaReader(files, unknowns).read(online);
            ProcessCpus process = ProcessCpus.read(files, cpus.present(), online, liveAffinity, unknowns);
            CpuSet allowed = process.allowed();
            SortedSet<Integer> allowedMemoryNodes = allowedMemoryNodes(nodes, process.memoryNodes(), unknowns);

            List<Chiplet> chiplets = ChipletDerivation.derive(online, cpus.packages(), cpus.dies(), cpus.clusters(), nodes, caches, cores, virtualChipletCores);
            if (caches.stream().noneMatch(cache -> cache.level() == 3)) {
                unknowns.add("no L3 information: chiplets are " + chiplets.get(0).basis().jsonName() + " domains");
            }
            CpuSet inNodes = nodes.stream().map(NumaNode::cpus).reduce(CpuSet.empty(), CpuSet::union);
            if (!inNodes.containsAll(online)) {
                unknowns.add("NUMA node of CPUs " + online.minus(inNodes) + ": no node under " + NODE_DIR + " lists them");
            }
            return new Topology("sysfs:" + root, cpus.present(), online, allowed, cpus.packages(), cpus.dies(), cpus.clusters(), nodes, allowedMemoryNodes,
                    caches, cores, coreKinds, chiplets, unknowns.list());
        }
    }

    /** The machine's nodes that the process's limit allows (hwloc's {@code allowed_nodeset}); every node without a limit. */
    private static SortedSet<Integer> allowedMemoryNodes(List<NumaNode> nodes, Optional<SortedSet<Integer>> limit, Unknowns unknowns)
    {
        SortedSet<Integer> all = Topology.allNodes(nodes);
        if (limit.isEmpty()) {
            return all;
        }
        SortedSet<Integer> allowed = new TreeSet<>(all);
        allowed.retainAll(limit.get());
        if (allowed.isEmpty() && !all.isEmpty()) {
            unknowns.add("allowed memory nodes: the cgroup's cpuset.mems and Mems_allowed_list allow " + limit.get()
                    + ", none of the NUMA nodes " + all + " under " + NODE_DIR + "; no memory is bound");
        }
        return allowed;
    }
}
