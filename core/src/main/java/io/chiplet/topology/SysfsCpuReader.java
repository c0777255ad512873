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

    /** A package as read: its id (-1 when the kernel gives none), its CPUs, and whether a mask named them together. */
    private record PackageCpus(int id, BitSet cpus, boolean fromMask)
    {
        PackageCpus(int id, BitSet cpus)
        {
            this(id, cpus, true);
        }
    }

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
        else {
            // kernels built without CPU hotplug's global list, and dumps that lost it, still give each CPU its own
            // cpuN/online (cpu0 on x86 has none: it cannot go offline); hwloc reads those, and so do we
            CpuSet candidates = presentFile.orElseGet(this::cpuDirectories);
            online = perCpuOnline(candidates);
            CpuSet offline = candidates.minus(online);
            unknowns.add("online CPUs: " + CPU_DIR + "online is missing; taken from each " + CPU_DIR + "cpuN/online, as hwloc takes them"
                    + (offline.isEmpty() ? "" : " (CPUs " + offline + " are offline)")
                    + (presentFile.isPresent() ? "" : "; no present either, so the present CPUs are the cpuN directories"));
        }
        if (online.isEmpty()) {
            throw new TopologyException(CPU_DIR + (onlineFile.isPresent() ? "online: expected at least one online CPU but found none"
                    : "cpuN/online: every CPU's says 0; expected at least one online CPU"));
        }
        CpuSet present = (presentFile.isPresent() ? presentFile.get() : onlineFile.isPresent() ? online : cpuDirectories()).union(online);

        CpuSets cpus = readCpuTopology(online);
        return new CpuTopology(present, online, cpus.packages(), cpus.dies(), cpus.clusters(), cpus.cores());
    }

    /**
     * The CPUs of {@code candidates} whose {@code cpuN/online} says 1, or that have none (the CPU cannot be taken
     * offline). hwloc takes {@code atoi} of the file, so garbage there reads as offline; here anything but 0 or 1 is
     * an error naming the file: a CPU wrongly taken as online would be pinned to, one wrongly offline never used.
     */
    private CpuSet perCpuOnline(CpuSet candidates)
    {
        BitSet online = new BitSet();
        BitSet empty = new BitSet();
        candidates.stream().forEach(cpu -> {
            String file = CPU_DIR + "cpu" + cpu + "/online";
            Optional<String> text = files.read(file);
            if (text.isPresent() && FileText.value(text.get()).isBlank()) {
                empty.set(cpu);
            }
            if (text.map(value -> parseOnline(file, value)).orElse(true)) {
                online.set(cpu);
            }
        });
        if (!empty.isEmpty()) {
            unknowns.add("online CPUs: the cpuN/online files of CPUs " + CpuSet.fromBitSet(empty) + " are empty (" + CPU_DIR + "cpu" + empty.nextSetBit(0)
                    + "/online among them: a dump that could not read them); those CPUs are taken as online, as hwloc takes them");
        }
        return CpuSet.fromBitSet(online);
    }

    /**
     * A per-CPU {@code online} file: {@code 1} (online) or {@code 0} (offline), up to its newline. An empty one (dumps
     * made without the right to read it hold such files: hwloc's {@code 128ia64-17n4s2c}) says nothing, and the CPU is
     * taken as online, as hwloc takes it.
     */
    static boolean parseOnline(String file, String text)
    {
        String value = FileText.value(text).strip();
        return switch (value) {
            case "1", "" -> true;
            case "0" -> false;
            default -> throw new TopologyException(file + ": expected 1 (online) or 0 (offline) but found " + FileText.quote(value));
        };
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
        List<PackageCpus> packages = new ArrayList<>();
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
                // as hwloc reads it: a package is the CPUs package_cpus (core_siblings) names together; its id labels it
                // and may be -1 (s390 before socket_id, POWER partitions without ibm,chip-id) or shared by packages the
                // masks tell apart (IA-64 without PAL topology: one id per node board)
                int packageId = files.readInt(topology + "physical_package_id").filter(value -> value >= 0).orElse(-1);
                Optional<CpuSet> together = readGroupCpus(topology, "package_cpus", "core_siblings");
                BitSet members = together.map(CpuSet::toBitSet).orElseGet(BitSet::new);
                members.and(onlineBits);
                members.set(cpu);
                BitSet placedNow = new BitSet();
                for (int member = members.nextSetBit(0); member >= 0; member = members.nextSetBit(member + 1)) {
                    if (!placed[member]) {
                        placed[member] = true;
                        packageOf[member] = packageId;
                        placedNow.set(member);
                    }
                }
                if (together.isPresent()) {
                    packages.add(new PackageCpus(packageId, placedNow));
                }
                else if (packageId >= 0) {
                    // no mask: the CPUs sharing the id are the package, as before package_cpus and core_siblings
                    packages.stream().filter(found -> found.id() == packageId && !found.fromMask()).findFirst()
                            .ifPresentOrElse(found -> found.cpus().or(placedNow), () -> packages.add(new PackageCpus(packageId, placedNow, false)));
                }
                else {
                    withoutPackage.or(placedNow);
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
            unknowns.add("package of CPUs " + CpuSet.fromBitSet(withoutPackage) + ": no physical_package_id and no package_cpus or core_siblings; they belong to no package");
        }
        BitSet withoutId = new BitSet();
        packages.stream().filter(found -> found.id() < 0).forEach(found -> withoutId.or(found.cpus()));
        if (!withoutId.isEmpty()) {
            unknowns.add("package ids of CPUs " + CpuSet.fromBitSet(withoutId) + ": physical_package_id is -1 or missing; their packages are the CPUs"
                    + " package_cpus (core_siblings) names together, as hwloc reads them, with id -1");
        }
        Map<Integer, Long> perId = packages.stream().filter(found -> found.id() >= 0).collect(java.util.stream.Collectors.groupingBy(PackageCpus::id, TreeMap::new, java.util.stream.Collectors.counting()));
        perId.forEach((id, count) -> {
            if (count > 1) {
                unknowns.add("package id " + id + ": physical_package_id names " + count + " packages that package_cpus (core_siblings) tells apart ("
                        + packages.stream().filter(found -> found.id() == id).map(found -> CpuSet.fromBitSet(found.cpus()).toList()).collect(java.util.stream.Collectors.joining("; "))
                        + "); each is a package, as hwloc reads them, and they share the id");
            }
        });
        if (!withoutSiblings.isEmpty()) {
            unknowns.add("SMT siblings of CPUs " + CpuSet.fromBitSet(withoutSiblings) + ": no thread_siblings_list or core_cpus_list; each counts as its own core");
        }

        // by id, packages without one last, then by first CPU
        List<CpuPackage> packageList = packages.stream()
                .sorted(Comparator.comparingInt((PackageCpus found) -> found.id() < 0 ? Integer.MAX_VALUE : found.id()).thenComparingInt(found -> found.cpus().nextSetBit(0)))
                .map(found -> new CpuPackage(found.id(), CpuSet.fromBitSet(found.cpus())))
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
