package io.chiplet.topology;

import io.chiplet.topology.CoreKindRanking.CpuPerformance;
import io.chiplet.topology.CoreKindRanking.IntelCoreType;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

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
 * <li>no {@code physical_package_id}: the CPU belongs to no package;</li>
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
 */
public final class SysfsTopologyReader
{
    private static final String CPU_DIR = "sys/devices/system/cpu/";
    private static final String NODE_DIR = "sys/devices/system/node/";
    /** An arm64 CPU's MIDR_EL1, relative to its {@code cpuN/} directory. */
    private static final String MIDR = "regs/identification/midr_el1";

    private final Path root;
    private final boolean live;
    private final AffinityMaskSource affinity;

    private SysfsTopologyReader(Path root, boolean live, AffinityMaskSource affinity)
    {
        this.root = requireNonNull(root, "root is null");
        this.live = live;
        this.affinity = requireNonNull(affinity, "affinity is null");
    }

    /** Reads a snapshot whose {@code sys/} and {@code proc/} sit under {@code fsRoot}; the live machine is never consulted. */
    public static SysfsTopologyReader snapshot(Path fsRoot)
    {
        return new SysfsTopologyReader(fsRoot, false, AffinityMaskSource.NONE);
    }

    /** Reads the live machine; the allowed CPUs also honour the affinity mask {@code affinity} reports. */
    public static SysfsTopologyReader live(AffinityMaskSource affinity)
    {
        return new SysfsTopologyReader(Path.of("/"), true, affinity);
    }

    public Topology read()
    {
        return read(0);
    }

    /**
     * @param virtualChipletCores when positive, split every chiplet into virtual chiplets of this many physical cores
     * @throws TopologyException naming the file when a required fact is missing or any fact is malformed
     */
    public Topology read(int virtualChipletCores)
    {
        try (SysfsFiles files = SysfsFiles.open(root)) {
            return new Discovery(files).run(virtualChipletCores);
        }
    }

    private String source()
    {
        return "sysfs:" + root;
    }

    /**
     * The state of one discovery: everything it learned, filled in one pass over the online CPUs. Its own
     * {@link SysfsFiles} (which reuses its buffers and open directories) lets several threads share a reader.
     */
    private final class Discovery
    {
        private final SysfsFiles files;
        private final List<String> unknowns = new ArrayList<>();

        Discovery(SysfsFiles files)
        {
            this.files = files;
        }

        Topology run(int virtualChipletCores)
        {
            if (virtualChipletCores < 0) {
                throw new IllegalArgumentException("virtualChipletCores must not be negative: " + virtualChipletCores);
            }
            if (!Files.isDirectory(files.resolve(CPU_DIR))) {
                throw new TopologyException(CPU_DIR + ": missing; expected the kernel's CPU directory under " + files.root()
                        + " (a snapshot root must hold sys/ and proc/)");
            }
            Optional<CpuSet> presentFile = files.readList(CPU_DIR + "present");
            Optional<CpuSet> onlineFile = files.readList(CPU_DIR + "online");
            CpuSet online;
            if (onlineFile.isPresent()) {
                online = onlineFile.get();
            }
            else if (presentFile.isPresent()) {
                online = presentFile.get();
                unknowns.add("online CPUs: " + CPU_DIR + "online is missing; assuming every present CPU is online");
            }
            else {
                online = cpuDirectories();
                unknowns.add("online CPUs: " + CPU_DIR + "online and present are missing; assuming every cpuN directory is an online CPU");
            }
            if (online.isEmpty()) {
                throw new TopologyException(CPU_DIR + "online: expected at least one online CPU but found none");
            }
            CpuSet present = presentFile.orElse(online).union(online);

            CpuSets cpus = readCpuTopology(online);
            List<Cache> caches = readCaches(online, cpus.cores());
            List<CoreKind> coreKinds = degrade("kinds of core", () -> readCoreKinds(online, cpus.cores())).orElse(List.of());
            List<Core> cores = withKinds(cpus.cores(), coreKinds);
            List<NumaNode> nodes = readNumaNodes(online);
            CpuSet allowed = readAllowed(online);

            List<Chiplet> chiplets = ChipletDerivation.derive(online, cpus.packages(), cpus.dies(), cpus.clusters(), nodes, caches, cores, virtualChipletCores);
            if (caches.stream().noneMatch(cache -> cache.level() == 3)) {
                unknowns.add("no L3 information: chiplets are " + chiplets.get(0).basis().jsonName() + " domains");
            }
            CpuSet inNodes = nodes.stream().map(NumaNode::cpus).reduce(CpuSet.empty(), CpuSet::union);
            if (!inNodes.containsAll(online)) {
                unknowns.add("NUMA node of CPUs " + online.minus(inNodes) + ": no node under " + NODE_DIR + " lists them");
            }
            return new Topology(source(), present, online, allowed, cpus.packages(), cpus.dies(), cpus.clusters(), nodes, caches, cores, coreKinds, chiplets, unknowns);
        }

        private CpuSet cpuDirectories()
        {
            BitSet cpus = new BitSet();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(files.resolve(CPU_DIR))) {
                for (Path entry : entries) {
                    int cpu = numberAfter(entry.getFileName().toString(), "cpu");
                    if (cpu >= 0 && cpu < CpuSet.MAX_CPUS) {
                        cpus.set(cpu);
                    }
                }
            }
            catch (IOException e) {
                throw new TopologyException(CPU_DIR + ": could not be listed (" + e.getMessage() + ")", e);
            }
            if (cpus.isEmpty()) {
                throw new TopologyException(CPU_DIR + ": expected an online or present cpulist or cpuN directories but found none (an empty sys/?)");
            }
            return CpuSet.fromBitSet(cpus);
        }

        /** What a cache index number holds, the same on every CPU. */
        private record CacheIndex(int level, CacheType type, int lineSizeBytes) {}

        private record CpuSets(List<CpuPackage> packages, List<Die> dies, List<Cluster> clusters, List<Core> cores) {}

        /** A group id within a package (die, cluster) or the package itself (package -1 for packages). */
        private record GroupKey(int packageId, int id) {}

        private CpuSets readCpuTopology(CpuSet online)
        {
            int size = online.last() + 1;
            int[] packageOf = new int[size];
            boolean[] placed = new boolean[size];
            BitSet inCore = new BitSet();
            Map<Integer, BitSet> packages = new TreeMap<>();
            Map<GroupKey, BitSet> dies = new HashMap<>();
            BitSet inDie = new BitSet();
            Map<Integer, BitSet> clusterByFirstCpu = new TreeMap<>();
            BitSet inCluster = new BitSet();
            List<Core> cores = new ArrayList<>();
            BitSet withoutPackage = new BitSet();
            BitSet withoutSiblings = new BitSet();
            BitSet onlineBits = online.toBitSet();
            boolean hasDies = true;
            boolean hasClusters = true;
            Optional<Boolean> threadsAreCores = Optional.empty();

            for (int cpu = onlineBits.nextSetBit(0); cpu >= 0; cpu = onlineBits.nextSetBit(cpu + 1)) {
                String topology = CPU_DIR + "cpu" + cpu + "/topology/";
                if (!placed[cpu]) {
                    Optional<Integer> id = files.readInt(topology + "physical_package_id");
                    int packageId = id.orElse(-1);
                    BitSet members = bits(cpu);
                    if (packageId >= 0) {
                        readGroupCpus(topology, "package_cpus", "core_siblings").ifPresent(list -> members.or(list.toBitSet()));
                    }
                    members.and(onlineBits);
                    members.set(cpu);
                    for (int member = members.nextSetBit(0); member >= 0; member = members.nextSetBit(member + 1)) {
                        if (!placed[member]) {
                            placed[member] = true;
                            packageOf[member] = packageId;
                            if (packageId >= 0) {
                                packages.computeIfAbsent(packageId, key -> new BitSet()).set(member);
                            }
                            else {
                                withoutPackage.set(member);
                            }
                        }
                    }
                }
                if (hasDies && !inDie.get(cpu)) {
                    int dieCpu = cpu;
                    hasDies = degrade("dies", () -> readGroup(topology, "die_id", "die_cpus", dieCpu, packageOf, onlineBits, dies, inDie)).orElse(false);
                }
                if (hasClusters && !inCluster.get(cpu)) {
                    int clusterCpu = cpu;
                    hasClusters = degrade("clusters", () -> readClusterCpus(topology, clusterCpu, onlineBits, clusterByFirstCpu, inCluster)).orElse(false);
                }
                if (!inCore.get(cpu)) {
                    Optional<CpuSet> siblings = readGroupCpus(topology, "thread_siblings", "core_cpus");
                    BitSet members = siblings.map(CpuSet::toBitSet).orElseGet(BitSet::new);
                    if (siblings.isEmpty()) {
                        withoutSiblings.set(cpu);
                    }
                    members.and(onlineBits);
                    members.andNot(inCore);
                    members.set(cpu);
                    int coreId = files.readInt(topology + "core_id").orElse(-1);
                    if (threadsAreCores.isEmpty() && members.cardinality() > 1) {
                        // AMD Bulldozer compute units list both cores of a module as siblings but give each its
                        // own core_id; hwloc then makes each thread a core, and so do we (decided once, as hwloc)
                        int sibling = members.nextSetBit(cpu + 1) >= 0 ? members.nextSetBit(cpu + 1) : members.nextSetBit(0);
                        int siblingCoreId = files.readInt(CPU_DIR + "cpu" + sibling + "/topology/core_id").orElse(coreId);
                        threadsAreCores = Optional.of(siblingCoreId != coreId);
                    }
                    if (threadsAreCores.orElse(false)) {
                        members = bits(cpu);
                    }
                    inCore.or(members);
                    cores.add(new Core(packageOf[cpu], coreId, CpuSet.fromBitSet(members), Optional.empty()));
                }
            }
            if (!withoutPackage.isEmpty()) {
                unknowns.add("package of CPUs " + CpuSet.fromBitSet(withoutPackage) + ": no physical_package_id; they belong to no package");
            }
            if (!withoutSiblings.isEmpty()) {
                unknowns.add("SMT siblings of CPUs " + CpuSet.fromBitSet(withoutSiblings) + ": no thread_siblings_list or core_cpus_list; each counts as its own core");
            }

            List<CpuPackage> packageList = packages.entrySet().stream()
                    .map(entry -> new CpuPackage(entry.getKey(), CpuSet.fromBitSet(entry.getValue())))
                    .toList();
            List<Die> dieList = hasDies
                    ? sortedGroups(dies).stream().map(entry -> new Die(entry.getKey().packageId(), entry.getKey().id(), CpuSet.fromBitSet(entry.getValue()))).toList()
                    : List.of();
            cores.sort(Comparator.comparingInt(Core::firstCpu));
            List<Cluster> clusterList = hasClusters && !everyClusterIsACore(clusterByFirstCpu, cores)
                    ? degrade("clusters", () -> readClusterIds(clusterByFirstCpu, packageOf)).orElse(List.of())
                    : List.of();
            return new CpuSets(packageList, dieList, clusterList, List.copyOf(cores));
        }

        /**
         * Reads {@code idFile} of {@code cpu} and the CPUs sharing it from {@code listFile}; false when the kernel
         * does not expose this kind of group (older kernels have no die or cluster files).
         */
        private boolean readGroup(String topology, String idFile, String listFile, int cpu, int[] packageOf, BitSet online, Map<GroupKey, BitSet> groups, BitSet grouped)
        {
            // -1 is the kernel's "no such group" (die_id on s390, POWER and arm64): hwloc makes no group of it either
            Optional<Integer> id = files.readInt(topology + idFile).filter(value -> value >= 0);
            if (id.isEmpty()) {
                if (!grouped.isEmpty()) {
                    throw new TopologyException(topology + idFile + ": missing although other CPUs have one; expected an integer id");
                }
                return false;
            }
            BitSet members = bits(cpu);
            files.readCpus(topology, listFile + "_list", listFile).ifPresent(list -> members.or(list.toBitSet()));
            members.and(online);
            members.andNot(grouped);
            members.set(cpu);
            grouped.or(members);
            groups.computeIfAbsent(new GroupKey(packageOf[cpu], id.get()), key -> new BitSet()).or(members);
            return true;
        }

        /**
         * Reads the CPUs of the cluster of {@code cpu} from {@code cluster_cpus_list}, leaving its id for
         * {@link #readClusterIds}; false when the kernel has no cluster files. Without the list a CPU is a cluster of
         * its own, provided it has a {@code cluster_id}.
         */
        private boolean readClusterCpus(String topology, int cpu, BitSet online, Map<Integer, BitSet> clusterByFirstCpu, BitSet grouped)
        {
            BitSet members = bits(cpu);
            Optional<CpuSet> list = files.readCpus(topology, "cluster_cpus_list", "cluster_cpus");
            if (list.isPresent()) {
                members.or(list.get().toBitSet());
            }
            else if (files.read(topology + "cluster_id").isEmpty()) {
                if (!grouped.isEmpty()) {
                    throw new TopologyException(topology + "cluster_id: missing although other CPUs have one; expected an integer id");
                }
                return false;
            }
            members.and(online);
            members.andNot(grouped);
            members.set(cpu);
            grouped.or(members);
            clusterByFirstCpu.put(cpu, members);
            return true;
        }

        /**
         * x86 servers report one cluster per core (the CPUs sharing an L2): such clusters tell nothing a core does
         * not, hwloc drops them as well, and their ids need not be read. Clusters are kept when any one of them is
         * not a core (ARM clusters, hybrid E-core modules).
         */
        private static boolean everyClusterIsACore(Map<Integer, BitSet> clusterByFirstCpu, List<Core> cores)
        {
            Map<Integer, BitSet> coreByFirstCpu = new HashMap<>();
            for (Core core : cores) {
                coreByFirstCpu.put(core.firstCpu(), core.cpus().toBitSet());
            }
            return clusterByFirstCpu.entrySet().stream().allMatch(cluster -> cluster.getValue().equals(coreByFirstCpu.get(cluster.getKey())));
        }

        /** The {@code cluster_id} of each cluster's first CPU; clusters with one id in one package are one cluster. */
        private List<Cluster> readClusterIds(Map<Integer, BitSet> clusterByFirstCpu, int[] packageOf)
        {
            Map<GroupKey, BitSet> clusters = new HashMap<>();
            for (Map.Entry<Integer, BitSet> cluster : clusterByFirstCpu.entrySet()) {
                int cpu = cluster.getKey();
                String file = CPU_DIR + "cpu" + cpu + "/topology/cluster_id";
                Optional<Integer> id = files.readInt(file);
                if (id.isEmpty()) {
                    if (clusters.isEmpty()) {
                        return List.of();
                    }
                    throw new TopologyException(file + ": missing although other CPUs have one; expected an integer id");
                }
                clusters.computeIfAbsent(new GroupKey(packageOf[cpu], id.get()), key -> new BitSet()).or(cluster.getValue());
            }
            return sortedGroups(clusters).stream()
                    .map(entry -> new Cluster(entry.getKey().packageId(), entry.getKey().id(), CpuSet.fromBitSet(entry.getValue())))
                    .toList();
        }

        /**
         * The CPUs of {@code name} in list or mask form, else of {@code fallback} in either form: the order hwloc reads
         * them in ({@code package_cpus} came with 5.4; before it {@code core_siblings} named the same CPUs).
         */
        private Optional<CpuSet> readGroupCpus(String topology, String name, String fallback)
        {
            Optional<CpuSet> cpus = files.readCpus(topology, name + "_list", name);
            return cpus.isPresent() ? cpus : files.readCpus(topology, fallback + "_list", fallback);
        }

        /**
         * Reads an optional fact; when its files are broken, the fact becomes unknown (with the file and why) instead
         * of stopping discovery.
         */
        private <T> Optional<T> degrade(String what, java.util.function.Supplier<T> read)
        {
            try {
                return Optional.of(read.get());
            }
            catch (TopologyException e) {
                unknowns.add(what + ": " + e.getMessage());
                return Optional.empty();
            }
        }

        /**
         * Reads each cache instance once, from the first online CPU it covers. The kernel numbers a CPU's cache
         * indexes in the same per-level order on every CPU (L1d, L1i, L2, L3), so an index's level and type are read
         * once, on the first CPU that has it, with its line size (the same for every instance of an index), and L1
         * and instruction indexes are never opened again. Only the first thread of a core looks for indexes beyond
         * those known, and only when it has just read a new instance of the deepest one: a cache further out serves
         * every CPU the deepest known cache serves, so one look per instance of that cache finds it.
         */
        private List<Cache> readCaches(CpuSet online, List<Core> cores)
        {
            BitSet firstThreads = new BitSet();
            for (Core core : cores) {
                firstThreads.set(core.firstCpu());
            }
            BitSet onlineBits = online.toBitSet();
            List<CacheIndex> layout = new ArrayList<>();
            List<BitSet> coveredByIndex = new ArrayList<>();
            List<Cache> caches = new ArrayList<>();
            // the directory each cache was read from, to name both files when two instances contradict each other
            Map<Cache, String> readFrom = new HashMap<>();
            BitSet withoutCaches = new BitSet();
            // an index whose level or type is broken is unknown, and so is every index after it (their order is lost)
            int brokenIndex = Integer.MAX_VALUE;

            for (int cpu = onlineBits.nextSetBit(0); cpu >= 0; cpu = onlineBits.nextSetBit(cpu + 1)) {
                String cacheDir = CPU_DIR + "cpu" + cpu + "/cache/index";
                // whether this CPU read the instance of the previous index itself (L1 and instruction indexes count as read)
                boolean readPrevious = true;
                for (int index = 0; index < brokenIndex; index++) {
                    if (index == layout.size()) {
                        String dir = cacheDir + index + "/";
                        if (!firstThreads.get(cpu) || !readPrevious || !files.exists(dir + "level")) {
                            if (index == 0) {
                                withoutCaches.set(cpu);
                            }
                            break;
                        }
                        Optional<CacheIndex> kind = degrade("caches from index" + index + " on", () -> readCacheIndex(dir));
                        if (kind.isEmpty()) {
                            brokenIndex = index;
                            break;
                        }
                        layout.add(kind.get());
                        coveredByIndex.add(new BitSet());
                    }
                    CacheIndex kind = layout.get(index);
                    BitSet covered = coveredByIndex.get(index);
                    if (kind.level() < 2 || kind.type() == CacheType.INSTRUCTION) {
                        readPrevious = true;
                        continue;
                    }
                    if (covered.get(cpu)) {
                        readPrevious = false;
                        continue;
                    }
                    readPrevious = true;
                    String dir = cacheDir + index + "/";
                    int reader = cpu;
                    Optional<Optional<CpuSet>> read = degrade("cache " + dir, () -> files.readCpus(dir, "shared_cpu_list", "shared_cpu_map"));
                    if (read.isEmpty()) {
                        covered.set(cpu);
                        continue;
                    }
                    Optional<CpuSet> list = read.get();
                    if (list.isEmpty()) {
                        if (!files.exists(dir)) {
                            // this CPU has fewer cache indexes than others (or none at all)
                            if (index == 0) {
                                withoutCaches.set(cpu);
                            }
                            break;
                        }
                        unknowns.add("CPUs sharing " + dir + ": no shared_cpu_list or shared_cpu_map; assuming CPU " + cpu + " alone");
                    }
                    BitSet shared = list.map(CpuSet::toBitSet).orElseGet(BitSet::new);
                    shared.and(onlineBits);
                    shared.set(reader);
                    Optional<Long> size = degrade("cache " + dir, () -> files.read(dir + "size").map(text -> parseSize(dir + "size", text)).orElse(0L));
                    if (size.isEmpty()) {
                        covered.set(cpu);
                        continue;
                    }
                    covered.or(shared);
                    Cache cache = new Cache(kind.level(), kind.type(), size.get(), kind.lineSizeBytes(), CpuSet.fromBitSet(shared));
                    // an instance is new to its index (it holds this CPU, which no earlier one did), but another index of
                    // the same level and type may have listed the same cache: it is one cache, listed once
                    if (!hasTwin(layout, index) || !caches.contains(cache)) {
                        caches.add(cache);
                        readFrom.putIfAbsent(cache, dir);
                    }
                }
            }
            if (!withoutCaches.isEmpty()) {
                unknowns.add("caches of CPUs " + CpuSet.fromBitSet(withoutCaches) + ": no " + CPU_DIR + "cpuN/cache directory");
            }
            List<Cache> sorted = new ArrayList<>(withoutContradictions(caches, readFrom));
            sorted.sort(Comparator.comparingInt(Cache::level).thenComparingInt(cache -> cache.cpus().first()));
            return List.copyOf(sorted);
        }

        private CacheIndex readCacheIndex(String dir)
        {
            int level = SysfsFiles.parseInt(dir + "level", files.readRequired(dir + "level", "a cache level"));
            if (level < 1 || level > 9) {
                throw new TopologyException(dir + "level: expected a cache level from 1 to 9 but found " + level);
            }
            CacheType type = parseType(dir + "type", files.readRequired(dir + "type", "Data, Instruction or Unified"));
            int lineSize = files.readInt(dir + "coherency_line_size").orElse(0);
            if (lineSize < 0) {
                throw new TopologyException(dir + "coherency_line_size: expected a non-negative byte count but found " + lineSize);
            }
            return new CacheIndex(level, type, lineSize);
        }

        /**
         * Instances of one level and type either hold the same CPUs or none in common; a kernel (or dump) whose lists
         * overlap otherwise contradicts itself, and no chiplet could lie within both. That level becomes unknown,
         * naming the two files, rather than put a CPU in two chiplets.
         */
        private List<Cache> withoutContradictions(List<Cache> caches, Map<Cache, String> readFrom)
        {
            List<Cache> kept = new ArrayList<>(caches);
            for (Cache a : caches) {
                for (Cache b : caches) {
                    if (a != b && a.level() == b.level() && a.type() == b.type() && a.cpus().intersects(b.cpus()) && !a.cpus().equals(b.cpus())
                            && kept.contains(a)) {
                        unknowns.add("L" + a.level() + " caches: " + readFrom.get(a) + " (" + a.cpus() + ") and " + readFrom.get(b) + " (" + b.cpus()
                                + ") overlap without being equal; every L" + a.level() + " " + a.type().name().toLowerCase(java.util.Locale.ROOT)
                                + " cache is unknown");
                        kept.removeIf(cache -> cache.level() == a.level() && cache.type() == a.type());
                    }
                }
            }
            return kept;
        }

        /** Whether another cache index has the level and type of {@code index}. */
        private static boolean hasTwin(List<CacheIndex> layout, int index)
        {
            CacheIndex kind = layout.get(index);
            for (int other = 0; other < layout.size(); other++) {
                if (other != index && layout.get(other).level() == kind.level() && layout.get(other).type() == kind.type()) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Kinds of core from positive evidence only: a source ({@code cpu_capacity}, the {@code cpu_core}/{@code cpu_atom}
         * PMUs, {@code cpuinfo_max_freq}, {@code base_frequency}, the arm64 MIDR) is compared only when it is there for every core; one
         * that some cores lack is left out and said so. Missing data means "alike, and unknown", never another kind.
         */
        private List<CoreKind> readCoreKinds(CpuSet online, List<Core> cores)
        {
            int first = online.first();
            String firstDir = CPU_DIR + "cpu" + first + "/";
            // the kernel exposes these for all CPUs or none, so the first CPU says whether to look at the others
            boolean hasCapacity = files.exists(firstDir + "cpu_capacity");
            boolean hasMax = files.exists(firstDir + "cpufreq/cpuinfo_max_freq");
            boolean hasBase = files.exists(firstDir + "cpufreq/base_frequency");
            boolean hasMidr = files.exists(firstDir + MIDR);
            CpuSet intelCore = files.readList("sys/devices/cpu_core/cpus").orElse(CpuSet.empty());
            CpuSet intelAtom = files.readList("sys/devices/cpu_atom/cpus").orElse(CpuSet.empty());
            boolean hasCoreType = !intelCore.union(intelAtom).isEmpty();
            if (hasCoreType && !intelCore.union(intelAtom).containsAll(online)) {
                unknowns.add("kinds of core: sys/devices/cpu_core/cpus and sys/devices/cpu_atom/cpus do not cover CPUs "
                        + online.minus(intelCore.union(intelAtom)) + "; core types not compared");
                hasCoreType = false;
            }

            int count = cores.size();
            long[] capacity = new long[count];
            long[] max = new long[count];
            long[] base = new long[count];
            BitSet lacksCapacity = new BitSet();
            BitSet lacksMax = new BitSet();
            BitSet lacksBase = new BitSet();
            ArmCorePart[] parts = new ArmCorePart[count];
            BitSet lacksMidr = new BitSet();
            for (int i = 0; i < count; i++) {
                String dir = CPU_DIR + "cpu" + cores.get(i).firstCpu() + "/";
                capacity[i] = hasCapacity ? positive(dir + "cpu_capacity", lacksCapacity, cores.get(i)) : 0;
                max[i] = hasMax ? positive(dir + "cpufreq/cpuinfo_max_freq", lacksMax, cores.get(i)) : 0;
                base[i] = hasBase ? positive(dir + "cpufreq/base_frequency", lacksBase, cores.get(i)) : 0;
                if (hasMidr) {
                    Optional<String> midr = files.read(dir + MIDR);
                    if (midr.isPresent()) {
                        parts[i] = ArmCorePart.parseMidr(dir + MIDR, midr.get());
                    }
                    else {
                        lacksMidr.or(cores.get(i).cpus().toBitSet());
                    }
                }
            }
            hasCapacity = hasCapacity && withoutGaps("cpu_capacity", lacksCapacity);
            hasMax = hasMax && withoutGaps("cpufreq/cpuinfo_max_freq", lacksMax);
            hasBase = hasBase && withoutGaps("cpufreq/base_frequency", lacksBase);
            hasMidr = hasMidr && withoutGaps(MIDR, lacksMidr);

            List<CpuPerformance> performance = new ArrayList<>(online.size());
            for (int i = 0; i < count; i++) {
                OptionalLong coreCapacity = hasCapacity ? OptionalLong.of(capacity[i]) : OptionalLong.empty();
                for (int cpu : cores.get(i).cpus().toArray()) {
                    IntelCoreType type = !hasCoreType ? IntelCoreType.UNKNOWN : intelCore.contains(cpu) ? IntelCoreType.CORE : IntelCoreType.ATOM;
                    performance.add(new CpuPerformance(cpu, coreCapacity, type, hasBase ? base[i] : 0, hasMax ? max[i] : 0,
                            hasMidr ? Optional.of(parts[i]) : Optional.empty()));
                }
            }
            CoreKindRanking.Ranked ranked = CoreKindRanking.rank(performance);
            ranked.unknown().ifPresent(unknowns::add);
            return ranked.kinds();
        }

        /** A positive number from {@code file}, or 0 with the core's CPUs marked in {@code lacking} when it is absent or not positive. */
        private long positive(String file, BitSet lacking, Core core)
        {
            long value = optionalLong(file).orElse(0);
            if (value <= 0) {
                lacking.or(core.cpus().toBitSet());
                return 0;
            }
            return value;
        }

        private boolean withoutGaps(String file, BitSet lacking)
        {
            if (lacking.isEmpty()) {
                return true;
            }
            unknowns.add("kinds of core: CPUs " + CpuSet.fromBitSet(lacking) + " have no " + file + " where others have one; "
                    + file + " not compared (missing data is no evidence of another kind)");
            return false;
        }

        private OptionalLong optionalLong(String file)
        {
            return files.read(file).map(text -> OptionalLong.of(SysfsFiles.parseLong(file, text))).orElse(OptionalLong.empty());
        }

        private List<NumaNode> readNumaNodes(CpuSet online)
        {
            List<Integer> ids = nodeDirectories();
            if (ids.isEmpty()) {
                OptionalLong memory = degrade("memory of NUMA node 0", () -> files.read("proc/meminfo").flatMap(text -> memTotal("proc/meminfo", text)))
                        .flatMap(value -> value).map(OptionalLong::of).orElse(OptionalLong.empty());
                unknowns.add("NUMA nodes: no " + NODE_DIR + "nodeN directory; one node 0 holds every online CPU");
                return List.of(new NumaNode(0, online, memory, new TreeMap<>()));
            }
            List<NumaNode> nodes = new ArrayList<>(ids.size());
            for (int id : ids) {
                String dir = NODE_DIR + "node" + id + "/";
                CpuSet cpus = files.readCpus(dir, "cpulist", "cpumap")
                        .orElseThrow(() -> new TopologyException(dir + "cpulist: missing, and so is cpumap; expected the node's CPUs"))
                        .intersect(online);
                Optional<Optional<Long>> memory = degrade("memory of NUMA node " + id, () -> files.read(dir + "meminfo").flatMap(text -> memTotal(dir + "meminfo", text)));
                if (memory.isPresent() && memory.get().isEmpty()) {
                    unknowns.add("memory of NUMA node " + id + ": " + dir + "meminfo has no MemTotal");
                }
                TreeMap<Integer, Integer> distances = degrade("NUMA distances", () -> distances(dir + "distance", ids)).orElseGet(TreeMap::new);
                nodes.add(new NumaNode(id, cpus, memory.flatMap(value -> value).map(OptionalLong::of).orElse(OptionalLong.empty()), distances));
            }
            return withLocality(withoutContradictions(nodes));
        }

        /**
         * A CPU sits in one node. Where nodes' CPUs overlap (firmware or kernels that list every CPU in every node), the
         * NUMA data contradicts itself: as hwloc does, the nodes are taken in id order and a node holding a CPU an
         * earlier one holds is dropped, and said so, naming both files. Every CPU keeps one node.
         */
        private List<NumaNode> withoutContradictions(List<NumaNode> nodes)
        {
            List<NumaNode> kept = new ArrayList<>();
            for (NumaNode node : nodes) {
                Optional<NumaNode> earlier = kept.stream().filter(other -> other.cpus().intersects(node.cpus())).findFirst();
                if (earlier.isPresent()) {
                    unknowns.add("NUMA node " + node.id() + ": " + NODE_DIR + "node" + node.id() + "/cpulist (" + node.cpus() + ") overlaps "
                            + NODE_DIR + "node" + earlier.get().id() + "/cpulist (" + earlier.get().cpus() + "); node " + node.id()
                            + " dropped, as hwloc drops it, so that no CPU sits in two nodes");
                }
                else {
                    kept.add(node);
                }
            }
            if (kept.size() == nodes.size()) {
                return nodes;
            }
            List<Integer> keptIds = kept.stream().map(NumaNode::id).toList();
            return kept.stream()
                    .map(node -> {
                        TreeMap<Integer, Integer> distances = new TreeMap<>(node.distances());
                        distances.keySet().retainAll(keptIds);
                        return new NumaNode(node.id(), node.cpus(), node.memoryBytes(), distances);
                    })
                    .toList();
        }

        /** Gives CPU-less nodes the CPUs they are local to and every node a kind of memory. */
        private List<NumaNode> withLocality(List<NumaNode> nodes)
        {
            if (nodes.stream().allMatch(NumaNode::hasCpus)) {
                return List.copyOf(nodes);
            }
            Map<Integer, NumaNode> byId = new TreeMap<>();
            nodes.forEach(node -> byId.put(node.id(), node));
            Map<Integer, Integer> tierOf = degrade("memory tiers", this::memoryTiers).orElse(Map.of());
            List<NumaNode> result = new ArrayList<>(nodes.size());
            for (NumaNode node : nodes) {
                if (node.hasCpus()) {
                    result.add(node);
                    continue;
                }
                String dir = NODE_DIR + "node" + node.id() + "/";
                List<Integer> initiators = degrade("locality of NUMA node " + node.id(), () -> nodeLinks(dir + "access0/initiators")).orElse(List.of());
                CpuSet local = initiators.stream().map(byId::get).filter(java.util.Objects::nonNull).map(NumaNode::cpus).reduce(CpuSet.empty(), CpuSet::union);
                if (local.isEmpty()) {
                    local = nearestCpus(node, nodes);
                    if (local.isEmpty()) {
                        unknowns.add("locality of NUMA node " + node.id() + ": it has no CPUs, no " + dir + "access0/initiators and no distances; local to no CPU");
                    }
                }
                result.add(node.withLocality(local, memoryKind(node, dir, initiators, byId, tierOf)));
            }
            return List.copyOf(result);
        }

        /** The CPUs of the nodes with CPUs nearest to {@code node} by SLIT distance; empty without distances. */
        private CpuSet nearestCpus(NumaNode node, List<NumaNode> nodes)
        {
            int nearest = Integer.MAX_VALUE;
            CpuSet cpus = CpuSet.empty();
            for (NumaNode other : nodes) {
                Integer distance = node.distances().get(other.id());
                if (!other.hasCpus() || distance == null) {
                    continue;
                }
                if (distance < nearest) {
                    nearest = distance;
                    cpus = other.cpus();
                }
                else if (distance == nearest) {
                    cpus = cpus.union(other.cpus());
                }
            }
            return cpus;
        }

        /**
         * A CPU-less node's kind, on evidence only: a memory tier slower than that of the nodes with CPUs (the
         * kernel's {@code memory_tiering}, 6.1+) is CXL or PMEM, a faster one HBM; in the same tier, or without tiers,
         * HMAT read bandwidth from its initiator at least twice (half) that of the initiator's own memory says HBM
         * (CXL/PMEM). Anything else is unknown, and said so.
         */
        private MemoryKind memoryKind(NumaNode node, String dir, List<Integer> initiators, Map<Integer, NumaNode> byId, Map<Integer, Integer> tierOf)
        {
            Optional<Integer> cpuTier = byId.values().stream().filter(NumaNode::hasCpus).map(other -> tierOf.get(other.id())).filter(java.util.Objects::nonNull).min(Integer::compare);
            Integer tier = tierOf.get(node.id());
            if (tier != null && cpuTier.isPresent() && !tier.equals(cpuTier.get())) {
                return tier > cpuTier.get() ? MemoryKind.CXL_PMEM : MemoryKind.HBM;
            }
            Optional<Integer> initiator = initiators.stream().filter(id -> byId.containsKey(id) && byId.get(id).hasCpus()).findFirst();
            if (initiator.isPresent()) {
                OptionalLong own = bandwidth(dir + "access0/initiators/read_bandwidth");
                OptionalLong reference = bandwidth(NODE_DIR + "node" + initiator.get() + "/access0/initiators/read_bandwidth");
                if (own.isPresent() && reference.isPresent()) {
                    if (own.getAsLong() >= 2 * reference.getAsLong()) {
                        return MemoryKind.HBM;
                    }
                    if (2 * own.getAsLong() <= reference.getAsLong()) {
                        return MemoryKind.CXL_PMEM;
                    }
                }
            }
            unknowns.add("kind of memory of NUMA node " + node.id() + ": it has no CPUs, and neither memory tiers nor " + dir
                    + "access0/initiators/read_bandwidth tell HBM, CXL or PMEM from DRAM");
            return MemoryKind.UNKNOWN;
        }

        private OptionalLong bandwidth(String file)
        {
            return degrade("HMAT bandwidth", () -> optionalLong(file)).orElse(OptionalLong.empty());
        }

        /** Node id to memory tier number, from {@code sys/devices/virtual/memory_tiering/memory_tierN/nodelist}. */
        private Map<Integer, Integer> memoryTiers()
        {
            String tiers = "sys/devices/virtual/memory_tiering/";
            Map<Integer, Integer> tierOf = new TreeMap<>();
            for (String name : entries(tiers)) {
                int tier = numberAfter(name, "memory_tier");
                if (tier >= 0) {
                    files.readList(tiers + name + "/nodelist").ifPresent(nodes -> nodes.stream().forEach(node -> tierOf.putIfAbsent(node, tier)));
                }
            }
            return tierOf;
        }

        /** Node ids named by {@code nodeN} entries of {@code directory}; empty when it does not exist. */
        private List<Integer> nodeLinks(String directory)
        {
            List<Integer> ids = new ArrayList<>();
            for (String name : entries(directory)) {
                int id = numberAfter(name, "node");
                if (id >= 0) {
                    ids.add(id);
                }
            }
            ids.sort(null);
            return ids;
        }

        private List<String> entries(String directory)
        {
            Path dir = files.resolve(directory);
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            List<String> names = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    names.add(entry.getFileName().toString());
                    if (names.size() > CpuSet.MAX_CPUS * 2) {
                        throw new TopologyException(directory + ": holds more than " + CpuSet.MAX_CPUS * 2 + " entries; expected a kernel directory");
                    }
                }
            }
            catch (IOException e) {
                throw new TopologyException(directory + ": could not be listed (" + e.getMessage() + ")", e);
            }
            names.sort(null);
            return names;
        }

        private List<Integer> nodeDirectories()
        {
            Path dir = files.resolve(NODE_DIR);
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            List<Integer> ids = new ArrayList<>();
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    int id = numberAfter(entry.getFileName().toString(), "node");
                    if (id >= 0) {
                        ids.add(id);
                    }
                }
            }
            catch (IOException e) {
                throw new TopologyException(NODE_DIR + ": could not be listed (" + e.getMessage() + ")", e);
            }
            ids.sort(null);
            return ids;
        }

        /**
         * A node's {@code distance} lists one SLIT value per node in id order. Snapshots whose offline nodes have no
         * directory still list them; the node {@code possible} list then names the columns.
         */
        private TreeMap<Integer, Integer> distances(String file, List<Integer> ids)
        {
            TreeMap<Integer, Integer> distances = new TreeMap<>();
            Optional<String> text = files.read(file);
            if (text.isEmpty()) {
                unknowns.add("NUMA distances: " + file + " is missing");
                return distances;
            }
            String[] values = FileText.value(text.get()).strip().split("[ \\t]+");
            if (values.length == 1 && values[0].isEmpty()) {
                return distances;
            }
            List<Integer> columns = ids;
            if (values.length != ids.size()) {
                columns = files.readList(NODE_DIR + "possible").map(set -> set.stream().boxed().toList()).orElse(List.of());
                if (values.length != columns.size()) {
                    throw new TopologyException(file + ": expected " + ids.size() + " distances, one per node, but found " + values.length);
                }
            }
            for (int i = 0; i < values.length; i++) {
                distances.put(columns.get(i), SysfsFiles.parseInt(file, values[i]));
            }
            return distances;
        }

        private CpuSet readAllowed(CpuSet online)
        {
            CpuSet allowed = online;
            Optional<CgroupCpuset.Result> cgroup = degrade("allowed CPUs", () -> new CgroupCpuset(files).read());
            if (cgroup.isPresent()) {
                unknowns.addAll(cgroup.get().unknowns());
                if (cgroup.get().cpus().isPresent()) {
                    allowed = allowed.intersect(cgroup.get().cpus().get());
                }
            }
            Optional<String> status = degrade("allowed CPUs", () -> files.read("proc/self/status")).flatMap(text -> text);
            if (status.isPresent()) {
                Optional<CpuSet> cpusAllowed = degrade("allowed CPUs", () -> statusCpusAllowed(status.get())).flatMap(set -> set);
                if (cpusAllowed.isPresent()) {
                    allowed = allowed.intersect(cpusAllowed.get());
                }
            }
            if (live) {
                Optional<CpuSet> mask = affinity.affinityMask();
                if (mask.isPresent()) {
                    allowed = allowed.intersect(mask.get());
                }
                else {
                    unknowns.add("process affinity mask: could not be read; allowed CPUs honour only the cgroup cpuset");
                }
            }
            return allowed;
        }

        private static Optional<CpuSet> statusCpusAllowed(String status)
        {
            String key = "Cpus_allowed_list:";
            int at = status.indexOf(key);
            if (at < 0) {
                return Optional.empty();
            }
            int end = status.indexOf('\n', at);
            String value = status.substring(at + key.length(), end < 0 ? status.length() : end);
            return Optional.of(SysfsFiles.parseList("proc/self/status", value));
        }
    }

    private static List<Core> withKinds(List<Core> cores, List<CoreKind> kinds)
    {
        if (kinds.isEmpty()) {
            return cores;
        }
        return cores.stream()
                .map(core -> new Core(core.packageId(), core.coreId(), core.cpus(), kinds.stream()
                        .filter(kind -> kind.cpus().contains(core.firstCpu()))
                        .map(CoreKind::name)
                        .findFirst()))
                .toList();
    }

    private static <K extends Record> List<Map.Entry<K, BitSet>> sortedGroups(Map<K, BitSet> groups)
    {
        List<Map.Entry<K, BitSet>> entries = new ArrayList<>(groups.entrySet());
        entries.sort(Comparator.comparingInt(entry -> entry.getValue().nextSetBit(0)));
        return entries;
    }

    static CacheType parseType(String file, String text)
    {
        try {
            return CacheType.fromSysfs(text);
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(file + ": " + e.getMessage());
        }
    }

    /** Largest cache size believed: 1 TiB. Larger numbers are garbage (a 1.4 EB "cache"), not caches. */
    static final long MAX_CACHE_BYTES = 1L << 40;

    /** sysfs cache sizes are a number of ASCII digits with a K (or M, G) suffix: {@code 32K}, {@code 28160K}. */
    static long parseSize(String file, String text)
    {
        String s = FileText.value(text).strip();
        long multiplier = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> multiplier = 1L << 10;
                case 'M' -> multiplier = 1L << 20;
                case 'G' -> multiplier = 1L << 30;
                default -> multiplier = 1;
            }
        }
        String digits = multiplier == 1 ? s : s.substring(0, s.length() - 1);
        long value;
        try {
            value = SysfsFiles.parseLong(file, digits);
        }
        catch (TopologyException e) {
            value = -1;
        }
        if (value < 0 || value > MAX_CACHE_BYTES / multiplier) {
            throw new TopologyException(file + ": expected a size like 32K of at most 1T but found " + FileText.quote(s));
        }
        return value * multiplier;
    }

    /** {@code MemTotal:  16432276 kB}, possibly prefixed by {@code Node N}, in bytes. */
    static Optional<Long> memTotal(String file, String meminfo)
    {
        int at = meminfo.indexOf("MemTotal:");
        if (at < 0) {
            return Optional.empty();
        }
        int end = meminfo.indexOf('\n', at);
        String value = meminfo.substring(at + "MemTotal:".length(), end < 0 ? meminfo.length() : end).strip();
        boolean kilobytes = value.endsWith("kB");
        String digits = kilobytes ? value.substring(0, value.length() - 2) : value;
        long number = SysfsFiles.parseLong(file, digits);
        // 2^53 bytes (8 PiB) is beyond any machine's memory; the bound also keeps the kB product from overflowing
        if (number < 0 || number > (kilobytes ? (1L << 43) : (1L << 53))) {
            throw new TopologyException(file + ": expected MemTotal of a believable size but found " + FileText.quote(value));
        }
        return Optional.of(number * (kilobytes ? 1024 : 1));
    }

    private static BitSet bits(int cpu)
    {
        BitSet bits = new BitSet();
        bits.set(cpu);
        return bits;
    }

    /** {@code cpu12} -> 12 for prefix {@code cpu}; -1 when the name is not the prefix followed by digits only. */
    private static int numberAfter(String name, String prefix)
    {
        if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() > prefix.length() + 5) {
            return -1;
        }
        int value = 0;
        for (int i = prefix.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
