package io.chiplet.topology;

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
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Reads {@code sys/devices/system/cpu/}: which CPUs are present and online, and each online CPU's package, die,
 * cluster and core, from its {@code topology/} files. Part of one {@link SysfsTopologyReader} discovery.
 */
final class SysfsCpuReader
{
    static final String CPU_DIR = "sys/devices/system/cpu/";

    /** The CPU facts of one machine; lists sorted by id or first CPU. */
    record CpuTopology(CpuSet present, CpuSet online, List<CpuPackage> packages, List<Die> dies, List<Cluster> clusters, List<Core> cores) {}

    private record CpuSets(List<CpuPackage> packages, List<Die> dies, List<Cluster> clusters, List<Core> cores) {}

    /** A group id within a package (die, cluster) or the package itself (package -1 for packages). */
    private record GroupKey(int packageId, int id) {}

    private final SysfsFiles files;
    private final Unknowns unknowns;

    SysfsCpuReader(SysfsFiles files, Unknowns unknowns)
    {
        this.files = requireNonNull(files, "files is null");
        this.unknowns = requireNonNull(unknowns, "unknowns is null");
    }

    /**
     * @throws TopologyException naming the file when the CPU directory, the online CPUs, a CPU's package or its
     *         siblings are missing or malformed
     */
    CpuTopology read()
    {
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
        return new CpuTopology(present, online, cpus.packages(), cpus.dies(), cpus.clusters(), cpus.cores());
    }

    private CpuSet cpuDirectories()
    {
        BitSet cpus = new BitSet();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(files.resolve(CPU_DIR))) {
            for (Path entry : entries) {
                int cpu = SysfsFiles.numberAfter(entry.getFileName().toString(), "cpu");
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
                hasDies = unknowns.degrade("dies", () -> readGroup(topology, "die_id", "die_cpus", dieCpu, packageOf, onlineBits, dies, inDie)).orElse(false);
            }
            if (hasClusters && !inCluster.get(cpu)) {
                int clusterCpu = cpu;
                hasClusters = unknowns.degrade("clusters", () -> readClusterCpus(topology, clusterCpu, onlineBits, clusterByFirstCpu, inCluster)).orElse(false);
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
                ? unknowns.degrade("clusters", () -> readClusterIds(clusterByFirstCpu, packageOf)).orElse(List.of())
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

    private static <K extends Record> List<Map.Entry<K, BitSet>> sortedGroups(Map<K, BitSet> groups)
    {
        List<Map.Entry<K, BitSet>> entries = new ArrayList<>(groups.entrySet());
        entries.sort(Comparator.comparingInt(entry -> entry.getValue().nextSetBit(0)));
        return entries;
    }

    private static BitSet bits(int cpu)
    {
        BitSet bits = new BitSet();
        bits.set(cpu);
        return bits;
    }
}
