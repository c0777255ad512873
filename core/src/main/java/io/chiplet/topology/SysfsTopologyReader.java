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
 * <p>Required facts are the CPU directory and a list of online (or present) CPUs; a required fact that is missing
 * or malformed, and any optional file that exists but is garbled or unreadable, is a {@link TopologyException}
 * naming the file relative to the root and what was expected. Optional facts that are absent become a sentence
 * in {@link Topology#unknowns()}:
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
            List<CoreKind> coreKinds = readCoreKinds(online, cpus.cores());
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
                        readGroupCpus(topology, "package_cpus_list", "core_siblings_list").ifPresent(list -> members.or(list.toBitSet()));
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
                    hasDies = readGroup(topology, "die_id", "die_cpus_list", cpu, packageOf, onlineBits, dies, inDie);
                }
                if (hasClusters && !inCluster.get(cpu)) {
                    hasClusters = readClusterCpus(topology, cpu, onlineBits, clusterByFirstCpu, inCluster);
                }
                if (!inCore.get(cpu)) {
                    Optional<CpuSet> siblings = readGroupCpus(topology, "thread_siblings_list", "core_cpus_list");
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
                    ? readClusterIds(clusterByFirstCpu, packageOf)
                    : List.of();
            return new CpuSets(packageList, dieList, clusterList, List.copyOf(cores));
        }

        /**
         * Reads {@code idFile} of {@code cpu} and the CPUs sharing it from {@code listFile}; false when the kernel
         * does not expose this kind of group (older kernels have no die or cluster files).
         */
        private boolean readGroup(String topology, String idFile, String listFile, int cpu, int[] packageOf, BitSet online, Map<GroupKey, BitSet> groups, BitSet grouped)
        {
            Optional<Integer> id = files.readInt(topology + idFile);
            if (id.isEmpty()) {
                if (!grouped.isEmpty()) {
                    throw new TopologyException(topology + idFile + ": missing although other CPUs have one; expected an integer id");
                }
                return false;
            }
            BitSet members = bits(cpu);
            files.readList(topology + listFile).ifPresent(list -> members.or(list.toBitSet()));
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
            Optional<CpuSet> list = files.readList(topology + "cluster_cpus_list");
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

        private Optional<CpuSet> readGroupCpus(String topology, String name, String fallback)
        {
            Optional<CpuSet> list = files.readList(topology + name);
            return list.isPresent() ? list : files.readList(topology + fallback);
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
            BitSet withoutCaches = new BitSet();

            for (int cpu = onlineBits.nextSetBit(0); cpu >= 0; cpu = onlineBits.nextSetBit(cpu + 1)) {
                String cacheDir = CPU_DIR + "cpu" + cpu + "/cache/index";
                // whether this CPU read the instance of the previous index itself (L1 and instruction indexes count as read)
                boolean readPrevious = true;
                for (int index = 0; ; index++) {
                    if (index == layout.size()) {
                        String dir = cacheDir + index + "/";
                        if (!firstThreads.get(cpu) || !readPrevious || !files.exists(dir + "level")) {
                            if (index == 0) {
                                withoutCaches.set(cpu);
                            }
                            break;
                        }
                        int level = SysfsFiles.parseInt(dir + "level", files.readRequired(dir + "level", "a cache level"));
                        CacheType type = parseType(dir + "type", files.readRequired(dir + "type", "Data, Instruction or Unified"));
                        int lineSize = files.readInt(dir + "coherency_line_size").orElse(0);
                        if (lineSize < 0) {
                            throw new TopologyException(dir + "coherency_line_size: expected a non-negative byte count but found " + lineSize);
                        }
                        layout.add(new CacheIndex(level, type, lineSize));
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
                    Optional<CpuSet> list = files.readList(dir + "shared_cpu_list")
                            .or(() -> files.read(dir + "shared_cpu_map").map(text -> SysfsFiles.parseMask(dir + "shared_cpu_map", text)));
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
                    shared.set(cpu);
                    covered.or(shared);
                    long sizeBytes = files.read(dir + "size").map(text -> parseSize(dir + "size", text)).orElse(0L);
                    Cache cache = new Cache(kind.level(), kind.type(), sizeBytes, kind.lineSizeBytes(), CpuSet.fromBitSet(shared));
                    // an instance is new to its index (it holds this CPU, which no earlier one did), but another index of
                    // the same level and type may have listed the same cache: it is one cache, listed once
                    if (!hasTwin(layout, index) || !caches.contains(cache)) {
                        caches.add(cache);
                    }
                }
            }
            if (!withoutCaches.isEmpty()) {
                unknowns.add("caches of CPUs " + CpuSet.fromBitSet(withoutCaches) + ": no " + CPU_DIR + "cpuN/cache directory");
            }
            List<Cache> sorted = new ArrayList<>(caches);
            sorted.sort(Comparator.comparingInt(Cache::level).thenComparingInt(cache -> cache.cpus().first()));
            return List.copyOf(sorted);
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

        private List<CoreKind> readCoreKinds(CpuSet online, List<Core> cores)
        {
            int first = online.first();
            String firstDir = CPU_DIR + "cpu" + first + "/";
            // the kernel exposes these for all CPUs or none: probe the first CPU instead of failing on every one
            boolean hasCapacity = files.exists(firstDir + "cpu_capacity");
            boolean hasMax = files.exists(firstDir + "cpufreq/cpuinfo_max_freq");
            boolean hasBase = files.exists(firstDir + "cpufreq/base_frequency");
            CpuSet intelCore = files.readList("sys/devices/cpu_core/cpus").orElse(CpuSet.empty());
            CpuSet intelAtom = files.readList("sys/devices/cpu_atom/cpus").orElse(CpuSet.empty());

            List<CpuPerformance> performance = new ArrayList<>(online.size());
            for (Core core : cores) {
                String dir = CPU_DIR + "cpu" + core.firstCpu() + "/";
                OptionalLong capacity = hasCapacity ? optionalLong(dir + "cpu_capacity") : OptionalLong.empty();
                long max = hasMax ? optionalLong(dir + "cpufreq/cpuinfo_max_freq").orElse(0) : 0;
                long base = hasBase ? optionalLong(dir + "cpufreq/base_frequency").orElse(0) : 0;
                for (int cpu : core.cpus().toArray()) {
                    IntelCoreType type = intelCore.contains(cpu) ? IntelCoreType.CORE : intelAtom.contains(cpu) ? IntelCoreType.ATOM : IntelCoreType.UNKNOWN;
                    performance.add(new CpuPerformance(cpu, capacity, type, base, max));
                }
            }
            CoreKindRanking.Ranked ranked = CoreKindRanking.rank(performance);
            ranked.unknown().ifPresent(unknowns::add);
            return ranked.kinds();
        }

        private OptionalLong optionalLong(String file)
        {
            return files.read(file).map(text -> OptionalLong.of(SysfsFiles.parseLong(file, text))).orElse(OptionalLong.empty());
        }

        private List<NumaNode> readNumaNodes(CpuSet online)
        {
            List<Integer> ids = nodeDirectories();
            if (ids.isEmpty()) {
                OptionalLong memory = files.read("proc/meminfo").flatMap(text -> memTotal("proc/meminfo", text)).map(OptionalLong::of).orElse(OptionalLong.empty());
                unknowns.add("NUMA nodes: no " + NODE_DIR + "nodeN directory; one node 0 holds every online CPU");
                return List.of(new NumaNode(0, online, memory, new TreeMap<>()));
            }
            List<NumaNode> nodes = new ArrayList<>(ids.size());
            for (int id : ids) {
                String dir = NODE_DIR + "node" + id + "/";
                CpuSet cpus = SysfsFiles.parseList(dir + "cpulist", files.readRequired(dir + "cpulist", "the node's cpulist")).intersect(online);
                Optional<String> meminfo = files.read(dir + "meminfo");
                OptionalLong memory = meminfo.flatMap(text -> memTotal(dir + "meminfo", text)).map(OptionalLong::of).orElse(OptionalLong.empty());
                if (memory.isEmpty()) {
                    unknowns.add("memory of NUMA node " + id + ": " + dir + "meminfo has no MemTotal");
                }
                nodes.add(new NumaNode(id, cpus, memory, distances(dir + "distance", ids)));
            }
            return List.copyOf(nodes);
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
            String[] values = text.get().strip().split("\\s+");
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
            CgroupCpuset.Result cgroup = new CgroupCpuset(files).read();
            unknowns.addAll(cgroup.unknowns());
            if (cgroup.cpus().isPresent()) {
                allowed = allowed.intersect(cgroup.cpus().get());
            }
            Optional<String> status = files.read("proc/self/status");
            if (status.isPresent()) {
                Optional<CpuSet> cpusAllowed = statusCpusAllowed(status.get());
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

    private static CacheType parseType(String file, String text)
    {
        try {
            return CacheType.fromSysfs(text);
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(file + ": " + e.getMessage());
        }
    }

    /** sysfs cache sizes are a number with a K (or M, G) suffix: {@code 32K}, {@code 28160K}. */
    static long parseSize(String file, String text)
    {
        String s = text.strip();
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
        try {
            long value = SysfsFiles.parseLong(file, digits);
            if (value < 0) {
                throw new TopologyException(file + ": expected a size like 32K but found \"" + s + "\"");
            }
            return value * multiplier;
        }
        catch (TopologyException e) {
            throw new TopologyException(file + ": expected a size like 32K but found \"" + s + "\"");
        }
    }

    /** {@code MemTotal:  16432276 kB}, possibly prefixed by {@code Node N}, in bytes. */
    private static Optional<Long> memTotal(String file, String meminfo)
    {
        int at = meminfo.indexOf("MemTotal:");
        if (at < 0) {
            return Optional.empty();
        }
        int end = meminfo.indexOf('\n', at);
        String value = meminfo.substring(at + "MemTotal:".length(), end < 0 ? meminfo.length() : end).strip();
        boolean kilobytes = value.endsWith("kB");
        String digits = kilobytes ? value.substring(0, value.length() - 2) : value;
        return Optional.of(SysfsFiles.parseLong(file, digits) * (kilobytes ? 1024 : 1));
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
