package io.chiplet.topology;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static io.chiplet.topology.SysfsCpuReader.CPU_DIR;
import static java.util.Objects.requireNonNull;

/**
 * Which CPUs this process may use, and which NUMA nodes it may allocate memory from: the one computation behind
 * {@link Topology#allowed()}, {@link Topology#allowedMemoryNodes()} and the check before every pin
 * ({@code io.chiplet.affinity.PinnableCpus}). Two bounds on the CPUs, widest first:
 * <ul>
 * <li>{@code cpuset}: the online CPUs inside the process's cgroup cpuset ({@link CgroupCpuset}). It bounds every
 *     thread, and {@code sched_setaffinity} may widen a thread's mask up to it, so it is what a pin may ask for.</li>
 * <li>{@code allowed}: those the process runs on now, the cpuset narrowed by its affinity: {@code Cpus_allowed_list}
 *     of {@code proc/self/status} (a snapshot records it too), and on the live machine the mask an
 *     {@link AffinityMaskSource} reads ({@code taskset}, {@code numactl}).</li>
 * </ul>
 * The memory nodes are read the way hwloc reads its {@code allowed_nodeset}, from the same files: the cgroup's
 * {@code cpuset.mems} ({@code cpuset.mems.effective} on v2) narrowed by {@code Mems_allowed_list} of
 * {@code proc/self/status}.
 *
 * @param present CPUs the kernel knows about
 * @param online CPUs that are online
 * @param memoryNodes the NUMA nodes this process may allocate from; empty when neither file records a limit (every
 *        node is allowed)
 */
public record ProcessCpus(CpuSet present, CpuSet online, CpuSet cpuset, CpuSet allowed, Optional<SortedSet<Integer>> memoryNodes)
{
    public ProcessCpus
    {
        requireNonNull(present, "present is null");
        requireNonNull(online, "online is null");
        requireNonNull(cpuset, "cpuset is null");
        requireNonNull(allowed, "allowed is null");
        memoryNodes = requireNonNull(memoryNodes, "memoryNodes is null").map(nodes -> Collections.unmodifiableSortedSet(new TreeSet<>(nodes)));
    }

    /**
     * Reads {@code sys/devices/system/cpu/{present,online}}, the cgroup cpuset and {@code proc/self/status} under
     * {@code fsRoot}, for the check before a pin: nothing is guessed, and no affinity mask narrows it (a pin may
     * widen a thread's mask up to the cpuset).
     *
     * @throws TopologyException naming the file when the online CPUs are missing or any file read is garbled
     */
    public static ProcessCpus read(Path fsRoot)
    {
        try (SysfsFiles files = new SysfsFiles(requireNonNull(fsRoot, "fsRoot is null"))) {
            CpuSet online = files.readList(CPU_DIR + "online")
                    .orElseThrow(() -> new TopologyException(CPU_DIR + "online: missing; expected a cpulist like 0-3"));
            CpuSet present = files.readList(CPU_DIR + "present").orElse(online).union(online);
            return read(files, present, online, Optional.empty(), Unknowns.strict());
        }
    }

    /**
     * @param liveAffinity the live machine's affinity mask source; empty for a snapshot, which never consults the
     *         machine it runs on
     * @param unknowns where what could not be told goes, and whether a broken file is unknown or an error
     */
    static ProcessCpus read(SysfsFiles files, CpuSet present, CpuSet online, Optional<AffinityMaskSource> liveAffinity, Unknowns unknowns)
    {
        CpuSet cpuset = online;
        Optional<CgroupCpuset.Result> cgroup = unknowns.degrade("allowed CPUs", () -> new CgroupCpuset(files).read());
        if (cgroup.isPresent()) {
            unknowns.addAll(cgroup.get().unknowns());
            if (cgroup.get().cpus().isPresent()) {
                cpuset = cpuset.intersect(cgroup.get().cpus().get());
            }
        }
        CpuSet allowed = cpuset;
        Optional<String> status = unknowns.degrade("allowed CPUs", () -> files.read("proc/self/status")).flatMap(text -> text);
        if (status.isPresent()) {
            Optional<CpuSet> cpusAllowed = unknowns.degrade("allowed CPUs", () -> statusList(status.get(), "Cpus_allowed_list:")).flatMap(set -> set);
            if (cpusAllowed.isPresent()) {
                allowed = allowed.intersect(cpusAllowed.get());
            }
        }
        if (liveAffinity.isPresent()) {
            Optional<CpuSet> mask = liveAffinity.get().affinityMask();
            if (mask.isPresent()) {
                allowed = allowed.intersect(mask.get());
            }
            else {
                unknowns.add("process affinity mask: could not be read; allowed CPUs honour only the cgroup cpuset");
            }
        }
        return new ProcessCpus(present, online, cpuset, allowed, memoryNodes(files, status, unknowns));
    }

    /** The cgroup's {@code cpuset.mems} narrowed by {@code Mems_allowed_list}; empty when neither says anything. */
    private static Optional<SortedSet<Integer>> memoryNodes(SysfsFiles files, Optional<String> status, Unknowns unknowns)
    {
        Optional<SortedSet<Integer>> nodes = Optional.empty();
        Optional<CgroupCpuset.MemoryResult> cgroup = unknowns.degrade("allowed memory nodes", () -> new CgroupCpuset(files).readMemoryNodes());
        if (cgroup.isPresent()) {
            unknowns.addAll(cgroup.get().unknowns());
            nodes = cgroup.get().nodes();
        }
        if (status.isPresent()) {
            Optional<CpuSet> memsAllowed = unknowns.degrade("allowed memory nodes", () -> statusList(status.get(), "Mems_allowed_list:")).flatMap(set -> set);
            if (memsAllowed.isPresent()) {
                SortedSet<Integer> listed = memsAllowed.get().stream().boxed().collect(Collectors.toCollection(TreeSet::new));
                nodes = Optional.of(nodes.map(limit -> intersection(limit, listed)).orElse(listed));
            }
        }
        return nodes;
    }

    private static SortedSet<Integer> intersection(SortedSet<Integer> a, SortedSet<Integer> b)
    {
        SortedSet<Integer> both = new TreeSet<>(a);
        both.retainAll(b);
        return both;
    }

    /** A list field of {@code proc/self/status} ({@code Cpus_allowed_list:}, {@code Mems_allowed_list:}, the same syntax). */
    private static Optional<CpuSet> statusList(String status, String key)
    {
        int at = status.indexOf(key);
        if (at < 0) {
            return Optional.empty();
        }
        int end = status.indexOf('\n', at);
        String value = status.substring(at + key.length(), end < 0 ? status.length() : end);
        return Optional.of(SysfsFiles.parseList("proc/self/status", value));
    }
}
