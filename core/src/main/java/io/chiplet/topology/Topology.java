package io.chiplet.topology;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What one machine looks like, as one reader saw it. Lists are sorted (by id, or by first CPU) and immutable.
 *
 * @param source where it was read from: {@code sysfs:/}, {@code sysfs:DIR}, {@code hwloc-xml:FILE}, {@code oshi}
 * @param present CPUs the kernel knows about (possible hot-plug slots excluded)
 * @param online CPUs that are online
 * @param allowed online CPUs this process may use (cgroup cpuset, and on the live machine the affinity mask): what it
 *        runs on now, which may be narrower than {@code PinnableCpus.allowed()} (the cpuset alone, what a thread may
 *        be pinned to); placement uses both, intersected ({@code PlacementDomain})
 * @param allowedMemoryNodes ids of the NUMA nodes this process may allocate memory from (its cgroup's
 *        {@code cpuset.mems} and {@code Mems_allowed_list}; hwloc's {@code allowed_nodeset}), among the ids of
 *        {@code numaNodes}: the only nodes memory is ever bound to ({@code MemoryBinding})
 * @param unknowns facts this source could not tell, each a short sentence ("no L3 information: ...")
 */
public record Topology(
        String source,
        CpuSet present,
        CpuSet online,
        CpuSet allowed,
        List<CpuPackage> packages,
        List<Die> dies,
        List<Cluster> clusters,
        List<NumaNode> numaNodes,
        SortedSet<Integer> allowedMemoryNodes,
        List<Cache> caches,
        List<Core> cores,
        List<CoreKind> coreKinds,
        List<Chiplet> chiplets,
        List<String> unknowns)
{
    public Topology
    {
        requireNonNull(source, "source is null");
        requireNonNull(present, "present is null");
        requireNonNull(online, "online is null");
        requireNonNull(allowed, "allowed is null");
        packages = List.copyOf(packages);
        dies = List.copyOf(dies);
        clusters = List.copyOf(clusters);
        numaNodes = List.copyOf(numaNodes);
        allowedMemoryNodes = Collections.unmodifiableSortedSet(new TreeSet<>(requireNonNull(allowedMemoryNodes, "allowedMemoryNodes is null")));
        Set<Integer> ids = numaNodes.stream().map(NumaNode::id).collect(Collectors.toSet());
        if (!ids.containsAll(allowedMemoryNodes)) {
            throw new IllegalArgumentException("allowed memory nodes " + allowedMemoryNodes + " are not all NUMA nodes of the machine " + new TreeSet<>(ids));
        }
        caches = List.copyOf(caches);
        cores = List.copyOf(cores);
        coreKinds = List.copyOf(coreKinds);
        chiplets = List.copyOf(chiplets);
        unknowns = List.copyOf(unknowns);
    }

    /**
     * A topology read from {@code source} whose CPUs {@code cpus} are all present, online and allowed, with nothing else
     * known until set: no packages, caches, cores, NUMA nodes or chiplets, memory from every node. What tests' hand-built
     * machines start from; readers use the canonical constructor.
     */
    public static Builder builder(String source, CpuSet cpus)
    {
        return new Builder(source, cpus);
    }

    /** This topology as a builder, to change some parts of a copy (a test's variant of a fixture). */
    public Builder toBuilder()
    {
        return new Builder(source, online)
                .present(present)
                .allowed(allowed)
                .packages(packages)
                .dies(dies)
                .clusters(clusters)
                .numaNodes(numaNodes)
                .allowedMemoryNodes(allowedMemoryNodes)
                .caches(caches)
                .cores(cores)
                .coreKinds(coreKinds)
                .chiplets(chiplets)
                .unknowns(unknowns);
    }

    /** The ids of {@code numaNodes}: every node allowed. */
    public static SortedSet<Integer> allNodes(List<NumaNode> numaNodes)
    {
        return numaNodes.stream().map(NumaNode::id).collect(Collectors.toCollection(TreeSet::new));
    }

    public CpuSet offline()
    {
        return present.minus(online);
    }

    public List<Cache> cachesOfLevel(int level)
    {
        return caches.stream().filter(cache -> cache.level() == level).toList();
    }

    public Optional<NumaNode> numaNode(int id)
    {
        return numaNodes.stream().filter(node -> node.id() == id).findFirst();
    }

    /**
     * The package (socket) holding {@code chiplet}'s CPUs, told apart by its CPUs rather than its id: packages whose
     * id is -1 or shared ({@link CpuPackage}) are still different packages. Empty when no package lists them.
     */
    public Optional<CpuPackage> packageOf(Chiplet chiplet)
    {
        requireNonNull(chiplet, "chiplet is null");
        if (chiplet.cpus().isEmpty()) {
            return Optional.empty();
        }
        int first = chiplet.cpus().first();
        return packages.stream().filter(cpuPackage -> cpuPackage.cpus().contains(first)).findFirst();
    }

    public Optional<Chiplet> chiplet(int id)
    {
        return chiplets.stream().filter(chiplet -> chiplet.id() == id).findFirst();
    }

    /**
     * The NUMA node to take memory of {@code kind} from for {@code chiplet}: of the nodes of that kind whose memory is
     * local to every CPU of the chiplet (the HBM node beside its socket, in flat mode), the most local one (fewest
     * local CPUs, then lowest id); else the chiplet's own node. A node of unknown kind or locality is never chosen.
     */
    public int memoryNodeFor(Chiplet chiplet, MemoryKind kind)
    {
        return numaNodes.stream()
                .filter(node -> node.kind() == kind && !node.localCpus().isEmpty() && node.localCpus().containsAll(chiplet.cpus()))
                .min(java.util.Comparator.comparingInt((NumaNode node) -> node.localCpus().size()).thenComparingInt(NumaNode::id))
                .map(NumaNode::id)
                .orElse(chiplet.numaNode());
    }

    /**
     * This machine as one process may use it: {@code allowed} CPUs and {@code chiplets} (a subset of this topology's),
     * with {@code unknowns} saying what that leaves out; everything else as it is.
     */
    public Topology restrictedTo(CpuSet allowed, List<Chiplet> chiplets, List<String> unknowns)
    {
        return toBuilder().allowed(allowed).chiplets(chiplets).unknowns(unknowns).build();
    }

    /**
     * This machine as a process whose {@code cpuset.mems} allows only {@code nodes} sees it (a container on one
     * node of a larger host): what plans for such a process bind memory to.
     *
     * @throws IllegalArgumentException when a node is not one of this machine's
     */
    public Topology withAllowedMemoryNodes(Set<Integer> nodes)
    {
        return toBuilder().allowedMemoryNodes(requireNonNull(nodes, "nodes is null")).build();
    }

    /** The chiplet holding {@code cpu}, if the CPU is online. */
    public Optional<Chiplet> chipletOf(int cpu)
    {
        return chiplets.stream().filter(chiplet -> chiplet.cpus().contains(cpu)).findFirst();
    }

    /**
     * Whether placement's chiplets lie within L3 instances: {@link L3Placement#CONTRADICTORY} where the reader
     * dropped contradictory L3 lists (its sentence in {@link #unknowns()}), else {@link L3Placement#USED} when an L3
     * holds an online CPU, else {@link L3Placement#NONE}.
     */
    public L3Placement l3Placement()
    {
        String contradiction = SysfsCacheReader.contradictionPrefix(3);
        if (unknowns.stream().anyMatch(unknown -> unknown.startsWith(contradiction))) {
            return L3Placement.CONTRADICTORY;
        }
        boolean l3 = caches.stream().anyMatch(cache -> cache.level() == 3 && cache.type() != CacheType.INSTRUCTION && cache.cpus().intersects(online));
        return l3 ? L3Placement.USED : L3Placement.NONE;
    }

    public boolean isHybrid()
    {
        return coreKinds.size() > 1;
    }

    /**
     * Parts of a {@link Topology} set one at a time; {@link #build()} checks them as the canonical constructor does.
     * Memory may come from every NUMA node unless {@link #allowedMemoryNodes} is set after the last {@link #numaNodes}
     * (new nodes make the old allowed ids meaningless).
     */
    public static final class Builder
    {
        private String source;
        private CpuSet present;
        private CpuSet online;
        private CpuSet allowed;
        private List<CpuPackage> packages = List.of();
        private List<Die> dies = List.of();
        private List<Cluster> clusters = List.of();
        private List<NumaNode> numaNodes = List.of();
        // empty: every node of numaNodes
        private Optional<SortedSet<Integer>> allowedMemoryNodes = Optional.empty();
        private List<Cache> caches = List.of();
        private List<Core> cores = List.of();
        private List<CoreKind> coreKinds = List.of();
        private List<Chiplet> chiplets = List.of();
        private List<String> unknowns = List.of();

        private Builder(String source, CpuSet cpus)
        {
            this.source = requireNonNull(source, "source is null");
            this.present = requireNonNull(cpus, "cpus is null");
            this.online = cpus;
            this.allowed = cpus;
        }

        public Builder source(String source)
        {
            this.source = requireNonNull(source, "source is null");
            return this;
        }

        public Builder present(CpuSet present)
        {
            this.present = requireNonNull(present, "present is null");
            return this;
        }

        public Builder online(CpuSet online)
        {
            this.online = requireNonNull(online, "online is null");
            return this;
        }

        public Builder allowed(CpuSet allowed)
        {
            this.allowed = requireNonNull(allowed, "allowed is null");
            return this;
        }

        public Builder packages(List<CpuPackage> packages)
        {
            this.packages = List.copyOf(packages);
            return this;
        }

        public Builder dies(List<Die> dies)
        {
            this.dies = List.copyOf(dies);
            return this;
        }

        public Builder clusters(List<Cluster> clusters)
        {
            this.clusters = List.copyOf(clusters);
            return this;
        }

        /** The machine's NUMA nodes, with memory allowed from all of them until {@link #allowedMemoryNodes} says otherwise. */
        public Builder numaNodes(List<NumaNode> numaNodes)
        {
            this.numaNodes = List.copyOf(numaNodes);
            this.allowedMemoryNodes = Optional.empty();
            return this;
        }

        public Builder allowedMemoryNodes(Set<Integer> allowedMemoryNodes)
        {
            this.allowedMemoryNodes = Optional.of(new TreeSet<>(requireNonNull(allowedMemoryNodes, "allowedMemoryNodes is null")));
            return this;
        }

        public Builder caches(List<Cache> caches)
        {
            this.caches = List.copyOf(caches);
            return this;
        }

        public Builder cores(List<Core> cores)
        {
            this.cores = List.copyOf(cores);
            return this;
        }

        public Builder coreKinds(List<CoreKind> coreKinds)
        {
            this.coreKinds = List.copyOf(coreKinds);
            return this;
        }

        public Builder chiplets(List<Chiplet> chiplets)
        {
            this.chiplets = List.copyOf(chiplets);
            return this;
        }

        public Builder unknowns(List<String> unknowns)
        {
            this.unknowns = List.copyOf(unknowns);
            return this;
        }

        /** @throws IllegalArgumentException when an allowed memory node is not one of the NUMA nodes */
        public Topology build()
        {
            return new Topology(source, present, online, allowed, packages, dies, clusters, numaNodes,
                    allowedMemoryNodes.orElseGet(() -> allNodes(numaNodes)), caches, cores, coreKinds, chiplets, unknowns);
        }
    }
}
