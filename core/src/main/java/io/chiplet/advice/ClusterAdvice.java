package io.chiplet.advice;

import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Engine;
import io.chiplet.engine.Wording;
import io.chiplet.engine.trino.TrinoSessionSettings;
import io.chiplet.placement.CpusetAlignment;
import io.chiplet.placement.HostDivision;
import io.chiplet.topology.Cache;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Core;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What to configure so that a cluster manager hands an engine chiplet-aligned CPUs, and the engine uses them: one
 * executor (Spark) or worker (Trino) per chiplet, the study's WICP. Pure: a topology in, settings and paste-ready
 * fragments out; docs/cluster-managers.md gives the reasoning.
 *
 * <ul>
 *   <li><b>Kubernetes</b>: the kubelet's static CPU manager gives a Guaranteed pod with an integer CPU request
 *       exclusive CPUs; sized to one chiplet's CPUs, {@code prefer-align-cpus-by-uncorecache} (where the kernel's L3
 *       is the chiplet) or the topology manager's {@code single-numa-node} (where the NUMA node is: SNC, NPS4 with one
 *       L3 per node) makes those CPUs one chiplet. The reserved CPUs take one core, so one chiplet per node stays
 *       partial and the node holds one pod fewer than it has chiplets.</li>
 *   <li><b>YARN</b>: NUMA awareness binds a container to a whole NUMA node with numactl; there is nothing finer, so
 *       containers are sized to a chiplet and the plugin leases a chiplet inside the node.</li>
 *   <li><b>Standalone</b>: nothing is handed out; the plugin (Spark) or {@code chiplet exec --policy wicp-local}
 *       (anything) leases one chiplet per JVM.</li>
 * </ul>
 */
public record ClusterAdvice(List<AdvisedSetting> settings, List<Fragment> fragments)
{
    /** Share of a NUMA node's memory given to the pods or containers of its chiplets; the rest is the OS's, the kubelet's, the page cache's. */
    static final double MEMORY_SHARE = 0.9;
    /** Share of an executor pod's memory given to Spark's heap; the rest is {@code spark.executor.memoryOverhead}. */
    static final double SPARK_HEAP_SHARE = 0.9;
    /** Share of a Trino worker pod's memory given to its heap (Trino's documentation: 70-80% of the container). */
    static final double TRINO_HEAP_SHARE = 0.8;
    private static final long MIB = 1L << 20;
    /** The NodeManager's group, Hadoop's usual one. */
    static final String YARN_GROUP = "hadoop";
    /** The kubelet's default hard eviction threshold (evictionHard memory.available), all the Static memory manager must see reserved by default. */
    static final long RESERVED_MEMORY = 100 * MIB;
    private static final long GIB = 1L << 30;

    public ClusterAdvice
    {
        settings = List.copyOf(settings);
        fragments = List.copyOf(fragments);
    }

    public enum ClusterManager
    {
        KUBERNETES, YARN, STANDALONE;

        public String cliName()
        {
            return name().toLowerCase(Locale.ROOT);
        }

        public static ClusterManager parse(String name)
        {
            for (ClusterManager manager : values()) {
                if (manager.cliName().equals(name.strip().toLowerCase(Locale.ROOT))) {
                    return manager;
                }
            }
            throw new IllegalArgumentException("expected kubernetes, yarn or standalone but found \"" + name + "\"");
        }
    }

    /**
     * Text to paste into one file.
     *
     * @param title what it is and where it goes
     * @param syntax {@code yaml}, {@code properties}, {@code xml} or {@code shell}
     */
    public record Fragment(String title, String syntax, String text)
    {
        public Fragment
        {
            requireNonNull(title, "title is null");
            requireNonNull(syntax, "syntax is null");
            requireNonNull(text, "text is null");
        }
    }

    /** The facts about a host that every cluster manager's advice is built from. */
    record Host(
            List<Chiplet> chiplets,
            int chipletCpus,
            int chipletCores,
            int threadsPerCore,
            boolean l3IsChiplet,
            boolean numaNodeIsChiplet,
            boolean uniform,
            CpuSet reserved,
            OptionalLong memoryPerChiplet,
            int chipletsPerNode,
            int smallestChipletCores)
    {
        static Host of(Topology topology, CpuSet allowed)
        {
            // Whole chiplets, not usable ones: the advice is what to hand out, and only a whole chiplet can be handed out.
            List<Chiplet> chiplets = CpusetAlignment.of(topology, allowed).whole();
            if (chiplets.isEmpty()) {
                throw new IllegalArgumentException("no chiplet lies wholly within the allowed CPUs " + allowed.toList() + "; there is nothing to align to");
            }
            // The most common chiplet size (ties: the smaller), so every chiplet of that size fits one pod exactly.
            Map<Integer, Long> sizes = chiplets.stream().collect(Collectors.groupingBy(chiplet -> chiplet.cpus().size(), TreeMap::new, Collectors.counting()));
            int chipletCpus = sizes.entrySet().stream().max(Map.Entry.<Integer, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                    .orElseThrow().getKey();
            Chiplet typical = chiplets.stream().filter(chiplet -> chiplet.cpus().size() == chipletCpus).findFirst().orElseThrow();
            List<Core> typicalCores = topology.cores().stream().filter(core -> typical.cpus().containsAll(core.cpus())).toList();
            int chipletCores = Math.max(1, typicalCores.size());
            // The most threads of any core: a hybrid chiplet's performance cores have SMT siblings, its efficiency cores none.
            int threadsPerCore = Math.max(1, typicalCores.stream().mapToInt(core -> core.cpus().intersect(typical.cpus()).size()).max().orElse(chipletCpus / chipletCores));

            List<Cache> l3 = topology.cachesOfLevel(3);
            boolean l3IsChiplet = !l3.isEmpty() && chiplets.stream().allMatch(chiplet -> l3.stream()
                    .anyMatch(cache -> cache.cpus().intersect(topology.online()).equals(chiplet.cpus())));
            Map<Integer, NumaNode> nodes = topology.numaNodes().stream().collect(Collectors.toMap(NumaNode::id, Function.identity(), (a, b) -> a));
            boolean numaNodeIsChiplet = chiplets.stream().allMatch(chiplet -> {
                NumaNode node = nodes.get(chiplet.numaNode());
                return node != null && node.cpus().intersect(topology.online()).equals(chiplet.cpus());
            });
            // The reserved CPUs: the first core of the first chiplet with every SMT sibling (full-pcpus-only wants whole cores).
            Chiplet first = chiplets.get(0);
            CpuSet reserved = topology.cores().stream()
                    .filter(core -> first.cpus().containsAll(core.cpus()))
                    .min(Comparator.comparingInt(Core::firstCpu))
                    .map(Core::cpus)
                    .orElse(CpuSet.of(first.cpus().first()));

            Map<Integer, Long> chipletsByNode = chiplets.stream().collect(Collectors.groupingBy(Chiplet::numaNode, Collectors.counting()));
            OptionalLong memory = OptionalLong.empty();
            for (Chiplet chiplet : chiplets) {
                NumaNode node = nodes.get(chiplet.numaNode());
                if (node == null || node.memoryBytes().isEmpty()) {
                    memory = OptionalLong.empty();
                    break;
                }
                long share = node.memoryBytes().getAsLong() / chipletsByNode.get(chiplet.numaNode());
                memory = OptionalLong.of(memory.isEmpty() ? share : Math.min(memory.getAsLong(), share));
            }
            int chipletsPerNode = (int) chipletsByNode.values().stream().mapToLong(Long::longValue).max().orElse(1);
            // An executor that leases any chiplet of its node must fit the smallest (one with offline cores, say).
            int smallestChipletCores = chiplets.stream()
                    .mapToInt(chiplet -> (int) topology.cores().stream().filter(core -> chiplet.cpus().containsAll(core.cpus())).count())
                    .map(cores -> Math.max(1, cores))
                    .min().orElse(chipletCores);
            return new Host(chiplets, chipletCpus, chipletCores, threadsPerCore, l3IsChiplet, numaNodeIsChiplet, sizes.size() == 1, reserved, memory,
                    chipletsPerNode, smallestChipletCores);
        }

        boolean smt()
        {
            return threadsPerCore > 1;
        }

        String chipletShape()
        {
            boolean evenSmt = smt() && chipletCpus == chipletCores * threadsPerCore;
            return Wording.count(chipletCpus, "CPU") + " (" + Wording.count(chipletCores, "core") + (evenSmt ? " x " + threadsPerCore + " threads" : "") + ")";
        }

        /** A pod's CPUs: one whole chiplet where there are several (the reserved core's chiplet takes none), else the one less the reserved core. */
        int podCpus()
        {
            return chiplets.size() > 1 ? chipletCpus : chipletCpus - reserved.size();
        }

        /** The physical cores among a pod's CPUs: with full-pcpus-only the kubelet hands out whole cores only. */
        int podCores()
        {
            return chiplets.size() > 1 ? chipletCores : chipletCores - 1;
        }

        /** How a pod's CPU count comes about, naming every number in it. */
        String podShape()
        {
            return chiplets.size() > 1
                    ? "one chiplet: " + chipletShape()
                    : "the host's one chiplet, " + chipletShape() + ", less the reserved core (CPUs " + reserved.toList() + "): "
                            + Wording.count(podCpus(), "CPU") + " (" + Wording.count(podCores(), "core") + ")";
        }

        /** The memory of one pod or container: its chiplet's share of its node, less what the host keeps, in whole 256 MiB. */
        OptionalLong podMemory()
        {
            return memoryPerChiplet.isPresent() ? OptionalLong.of(floorTo((long) (memoryPerChiplet.getAsLong() * MEMORY_SHARE), 256 * MIB)) : OptionalLong.empty();
        }
    }

    public static ClusterAdvice advise(ClusterManager manager, Engine engine, Topology topology, CpuSet allowed)
    {
        return advise(manager, engine, topology, allowed, OptionalInt.empty(), OptionalLong.empty(), OptionalInt.empty());
    }

    /**
     * @param workersPerHost only for standalone: Kubernetes and YARN get one pod or container per chiplet
     * @param dataBytes only for standalone, as in {@link Advice#advise}
     * @param hosts only for standalone, as in {@link Advice#advise}
     */
    public static ClusterAdvice advise(ClusterManager manager, Engine engine, Topology topology, CpuSet allowed, OptionalInt workersPerHost,
            OptionalLong dataBytes, OptionalInt hosts)
    {
        requireNonNull(manager, "manager is null");
        requireNonNull(engine, "engine is null");
        if (manager != ClusterManager.STANDALONE && (workersPerHost.isPresent() || dataBytes.isPresent() || hosts.isPresent())) {
            throw new IllegalArgumentException("--cluster-manager " + manager.cliName() + " sizes one pod or container per chiplet: "
                    + "--workers-per-host, --data-bytes and --hosts apply without --cluster-manager or with standalone");
        }
        if (manager == ClusterManager.YARN && !Advice.isSpark(engine)) {
            throw new IllegalArgumentException("--cluster-manager yarn: Trino does not run on YARN; use kubernetes or standalone");
        }
        return switch (manager) {
            case KUBERNETES -> kubernetes(engine, Host.of(topology, allowed));
            case YARN -> yarn(engine, Host.of(topology, allowed));
            case STANDALONE -> standalone(engine, topology, allowed, workersPerHost, dataBytes, hosts);
        };
    }

    private static ClusterAdvice kubernetes(Engine engine, Host host)
    {
        List<AdvisedSetting> settings = new ArrayList<>();
        int chiplets = host.chiplets().size();
        if (host.podCores() < 1) {
            throw new IllegalArgumentException("--cluster-manager kubernetes: this host has one chiplet of " + Wording.count(host.chipletCores(), "core")
                    + "; the kubelet's reserved core (CPUs " + host.reserved().toList() + ") leaves no whole core for a pod");
        }
        int podCpus = host.podCpus();
        int podCores = host.podCores();
        int podsPerNode = chiplets > 1 ? chiplets - 1 : 1;
        String worker = Advice.isSpark(engine) ? "executor" : "worker";

        settings.add(new AdvisedSetting("kubelet cpuManagerPolicy", "static",
                "gives the containers of Guaranteed pods with integer CPU requests exclusive CPUs (a cpuset); the none policy shares every CPU"));
        if (host.smt()) {
            settings.add(new AdvisedSetting("kubelet cpuManagerPolicyOptions full-pcpus-only", "true",
                    "whole physical cores only (" + host.threadsPerCore() + " threads each), so no pod shares a core's L1/L2 with another"));
        }
        if (host.l3IsChiplet()) {
            settings.add(new AdvisedSetting("kubelet cpuManagerPolicyOptions prefer-align-cpus-by-uncorecache", "true",
                    "each chiplet is one L3 (uncore cache) to the kernel; the kubelet then takes a " + podCpus + "-CPU request from one free L3 group"
                            + " (beta and on by default from Kubernetes 1.34; 1.32-1.33 also need featureGates CPUManagerPolicyAlphaOptions: true; best effort)"));
        }
        else {
            settings.add(new AdvisedSetting("kubelet cpuManagerPolicyOptions prefer-align-cpus-by-uncorecache", "(leave unset)",
                    "the kernel reports one L3 for several chiplets here (" + (host.numaNodeIsChiplet() ? "each chiplet is a NUMA node: SNC or NPS" : "no finer L3")
                            + "), so the kubelet has no uncore-cache groups to align to"));
        }
        settings.add(new AdvisedSetting("kubelet reservedSystemCPUs", host.reserved().toList(),
                "one whole core for the kubelet and system daemons (the static policy needs a reservation above zero); its chiplet then takes no whole-chiplet pod"));
        // A chiplet always lies within one NUMA node, so a one-chiplet pod always fits single-numa-node.
        settings.add(new AdvisedSetting("kubelet topologyManagerPolicy", "single-numa-node",
                host.numaNodeIsChiplet()
                        ? "each chiplet is one NUMA node here, so a pod on one node is on one chiplet: this is what aligns pods to chiplets"
                        : "a chiplet lies within one NUMA node; a pod is admitted only with CPUs (and, with the memory manager below, memory) of one node"));
        settings.add(new AdvisedSetting("kubelet topologyManagerScope", "pod",
                "aligns the whole pod (the " + worker + " container and any sidecar) to one NUMA node, not each container on its own"));
        if (!host.l3IsChiplet() && !host.numaNodeIsChiplet()) {
            settings.add(new AdvisedSetting("note", "kubelet cannot align", "neither the kernel's L3 nor its NUMA nodes match the chiplets here; "
                    + "pods get whole cores of one node, and the plugin pins threads within whatever cpuset they get"));
        }
        settings.add(new AdvisedSetting("kubelet memoryManagerPolicy", "Static",
                "the topology manager aligns a Guaranteed pod's memory to its NUMA node only with the memory manager's Static policy; without it memory "
                        + "comes from any node and only the plugin's memory binding prefers the chiplet's node"));
        settings.add(new AdvisedSetting("kubelet reservedMemory", "numaNode " + host.chiplets().get(0).numaNode() + ": " + kubernetesBytes(RESERVED_MEMORY),
                "the Static memory manager needs reservedMemory summing to kubeReserved + systemReserved + evictionHard memory.available: "
                        + kubernetesBytes(RESERVED_MEMORY) + " is the default hard eviction threshold alone; add kubeReserved and systemReserved "
                        + "memory if you set them, or the kubelet does not start"));
        settings.add(new AdvisedSetting(worker + " pods per node", Integer.toString(podsPerNode),
                chiplets > 1 ? "one per chiplet (" + chiplets + " chiplets), less the chiplet that holds the reserved CPUs"
                        : "one chiplet only: the pod gets it less the reserved core"));
        settings.add(new AdvisedSetting(worker + " pod cpu (requests = limits)", Integer.toString(podCpus),
                host.podShape() + "; an integer request equal to the limit (and memory likewise) makes the pod Guaranteed"
                        + (host.uniform() ? "" : "; chiplets differ in size here, this is the most common one")));
        OptionalLong podMemory = host.podMemory();
        settings.add(new AdvisedSetting(worker + " pod memory (requests = limits)", podMemory.isPresent() ? kubernetesBytes(podMemory.getAsLong()) : "(unknown)",
                podMemory.isPresent() ? (int) (MEMORY_SHARE * 100) + "% of the chiplet's share of its NUMA node's memory; the rest for the host"
                        : "the NUMA nodes' memory is unknown in this source; give each pod its chiplet's share of its node, less what the host needs"));

        List<Fragment> fragments = new ArrayList<>();
        fragments.add(new Fragment("kubelet configuration (KubeletConfiguration, e.g. /var/lib/kubelet/config.yaml; drain the node and remove "
                + "/var/lib/kubelet/cpu_manager_state before restarting the kubelet with a new CPU manager policy)", "yaml", kubeletYaml(host)));
        String memory = podMemory.isPresent() ? kubernetesBytes(podMemory.getAsLong()) : "<chiplet's share of node memory>";
        String resources = "resources:\n"
                + "  requests:\n    cpu: \"" + podCpus + "\"\n    memory: " + memory + "\n"
                + "  limits:\n    cpu: \"" + podCpus + "\"\n    memory: " + memory + "\n";
        if (Advice.isSpark(engine)) {
            long heap = podMemory.isPresent() ? floorTo((long) (podMemory.getAsLong() * SPARK_HEAP_SHARE), 256 * MIB) : 0;
            settings.add(new AdvisedSetting("spark.executor.cores", Integer.toString(podCores),
                    "one task per physical core of the pod's " + Wording.count(podCpus, "CPU") + ": " + Wording.count(podCores, "core")
                            + (podCpus > podCores ? "; the SMT siblings take GC, JIT and shuffle threads" : "")));
            settings.add(new AdvisedSetting("spark.kubernetes.executor.request.cores", Integer.toString(podCpus), "the pod's CPU request: "
                    + Wording.count(podCpus, "CPU") + (chiplets > 1 ? ", the whole chiplet" : ", the chiplet less the reserved core")));
            settings.add(new AdvisedSetting("spark.kubernetes.executor.limit.cores", Integer.toString(podCpus), "equal to the request, for Guaranteed QoS"));
            if (podMemory.isPresent()) {
                settings.add(new AdvisedSetting("spark.executor.memory", sparkMebibytes(heap), (int) (SPARK_HEAP_SHARE * 100) + "% of the pod's memory for the heap"));
                settings.add(new AdvisedSetting("spark.executor.memoryOverhead", sparkMebibytes(podMemory.getAsLong() - heap),
                        "the rest, so that Spark's pod memory (request = limit) is exactly " + kubernetesBytes(podMemory.getAsLong())));
            }
            settings.add(new AdvisedSetting("spark.plugins", Advice.SPARK_PLUGIN_CLASS,
                    "binds task threads to the chiplet of the pod's cpuset, reports whether the cpuset is one chiplet, and follows it when the kubelet narrows it"));
            settings.add(new AdvisedSetting("spark.chiplet.mode", "task", "the pod already is one chiplet: each task thread is bound to it (its allowed CPUs) while it runs, as the plugin does on any host"));
            StringBuilder properties = new StringBuilder()
                    .append("spark.executor.cores=").append(podCores).append('\n')
                    .append("spark.kubernetes.executor.request.cores=").append(podCpus).append('\n')
                    .append("spark.kubernetes.executor.limit.cores=").append(podCpus).append('\n');
            if (podMemory.isPresent()) {
                properties.append("spark.executor.memory=").append(sparkMebibytes(heap)).append('\n')
                        .append("spark.executor.memoryOverhead=").append(sparkMebibytes(podMemory.getAsLong() - heap)).append('\n');
            }
            properties.append("# spark.executor.instances = ").append(podsPerNode).append(" x the number of nodes\n")
                    .append("spark.plugins=").append(Advice.SPARK_PLUGIN_CLASS).append('\n')
                    .append("spark.chiplet.mode=task\n");
            fragments.add(new Fragment("spark-defaults.conf or spark-submit --conf", "properties", properties.toString()));
            fragments.add(new Fragment("the executor container's resources as the pod should show them (kubectl get pod -o yaml); a sidecar in "
                    + "spark.kubernetes.executor.podTemplateFile needs requests = limits too, or the pod is not Guaranteed", "yaml", resources));
        }
        else {
            long heap = podMemory.isPresent() ? floorTo((long) (podMemory.getAsLong() * TRINO_HEAP_SHARE), GIB) : 0;
            long concurrency = TrinoSessionSettings.taskConcurrency(podCores);
            settings.add(new AdvisedSetting("task.concurrency", Long.toString(concurrency), "the largest power of two (Trino requires one) not above the pod's "
                    + Wording.count(podCores, "physical core")));
            if (podMemory.isPresent()) {
                settings.add(new AdvisedSetting("-Xmx (etc/jvm.config)", (heap / GIB) + "G", (int) (TRINO_HEAP_SHARE * 100) + "% of the pod's memory, as Trino advises for containers"));
            }
            fragments.add(new Fragment("the worker container's resources (Deployment or StatefulSet of Trino workers)", "yaml", resources));
            fragments.add(new Fragment("etc/config.properties and etc/jvm.config of each worker", "properties",
                    "task.concurrency=" + concurrency + "\n" + (podMemory.isPresent() ? "# jvm.config\n-Xmx" + (heap / GIB) + "G\n" : "")));
        }
        return new ClusterAdvice(settings, fragments);
    }

    private static String kubeletYaml(Host host)
    {
        StringBuilder yaml = new StringBuilder()
                .append("apiVersion: kubelet.config.k8s.io/v1beta1\n")
                .append("kind: KubeletConfiguration\n")
                .append("cpuManagerPolicy: static\n");
        if (host.smt() || host.l3IsChiplet()) {
            yaml.append("cpuManagerPolicyOptions:\n");
            if (host.smt()) {
                yaml.append("  full-pcpus-only: \"true\"\n");
            }
            if (host.l3IsChiplet()) {
                yaml.append("  prefer-align-cpus-by-uncorecache: \"true\"\n");
            }
        }
        yaml.append("reservedSystemCPUs: \"").append(host.reserved().toList()).append("\"\n")
                .append("topologyManagerPolicy: single-numa-node\n")
                .append("topologyManagerScope: pod\n")
                .append("memoryManagerPolicy: Static\n")
                .append("# kubeReserved + systemReserved + evictionHard memory.available (default 100Mi): add your reservations here\n")
                .append("reservedMemory:\n")
                .append("  - numaNode: ").append(host.chiplets().get(0).numaNode()).append('\n')
                .append("    limits:\n")
                .append("      memory: ").append(kubernetesBytes(RESERVED_MEMORY)).append('\n');
        if (host.l3IsChiplet()) {
            yaml.append("# Kubernetes 1.32 and 1.33 only, where prefer-align-cpus-by-uncorecache is alpha:\n")
                    .append("# featureGates:\n#   CPUManagerPolicyAlphaOptions: true\n");
        }
        return yaml.toString();
    }

    private static ClusterAdvice yarn(Engine engine, Host host)
    {
        List<AdvisedSetting> yarnSite = List.of(
                new AdvisedSetting("yarn.nodemanager.numa-awareness.enabled", "true",
                        "the NodeManager starts each container under numactl bound to one NUMA node's CPUs and memory"),
                new AdvisedSetting("yarn.nodemanager.container-executor.class", "org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor",
                        "NUMA awareness works only with the LinuxContainerExecutor, which needs the setuid container-executor binary and its "
                                + "container-executor.cfg (fragments below)"),
                new AdvisedSetting("yarn.nodemanager.linux-container-executor.group", YARN_GROUP,
                        "the NodeManager's group: the group owning the setuid container-executor binary, and the same value in container-executor.cfg"),
                new AdvisedSetting("yarn.nodemanager.numa-awareness.read-topology", "true", "reads the nodes from numactl --hardware"),
                new AdvisedSetting("yarn.nodemanager.numa-awareness.numactl.cmd", "/usr/bin/numactl", "where numactl is (package numactl)"));
        List<AdvisedSetting> settings = new ArrayList<>(yarnSite);
        settings.add(new AdvisedSetting("note", "container users", "without Kerberos the LinuxContainerExecutor runs every container as "
                + "yarn.nodemanager.linux-container-executor.nonsecure-mode.local-user (default nobody); set "
                + "yarn.nodemanager.linux-container-executor.nonsecure-mode.limit-users=false to run them as the submitting user (who must exist on every node)"));
        boolean several = host.chipletsPerNode() > 1;
        settings.add(new AdvisedSetting("executors per NUMA node", Integer.toString(host.chipletsPerNode()),
                several ? "one per chiplet: YARN binds a whole node (" + host.chipletsPerNode() + " chiplets), nothing finer, so each executor leases a chiplet of it"
                        : "each NUMA node is one chiplet here: YARN's binding alone is chiplet-aligned"));
        List<AdvisedSetting> spark = new ArrayList<>();
        spark.add(host.smallestChipletCores() < host.chipletCores()
                ? new AdvisedSetting("spark.executor.cores", Integer.toString(host.smallestChipletCores()), "the smallest chiplet's physical cores ("
                        + Wording.count(host.smallestChipletCores(), "core") + "; most have " + host.chipletShape() + "): an executor may lease any chiplet of its node")
                : new AdvisedSetting("spark.executor.cores", Integer.toString(host.chipletCores()), "one chiplet's physical cores: " + host.chipletShape()));
        OptionalLong podMemory = host.podMemory();
        if (podMemory.isPresent()) {
            long heap = floorTo((long) (podMemory.getAsLong() * SPARK_HEAP_SHARE), 256 * MIB);
            spark.add(new AdvisedSetting("spark.executor.memory", sparkMebibytes(heap), (int) (SPARK_HEAP_SHARE * 100) + "% of the container ("
                    + sparkMebibytes(podMemory.getAsLong()) + ": the chiplet's share of its node's memory less " + (100 - (int) (MEMORY_SHARE * 100))
                    + "% for the host, so containers that fit a node's memory stay on it)"));
            spark.add(new AdvisedSetting("spark.executor.memoryOverhead", sparkMebibytes(podMemory.getAsLong() - heap), "the rest of the container"));
        }
        spark.add(new AdvisedSetting("spark.plugins", Advice.SPARK_PLUGIN_CLASS, "pins within the container's node"));
        spark.add(new AdvisedSetting("spark.chiplet.leaseDir", HostDivision.DEFAULT_LEASE_DIRECTORY, "one directory for every container of the node "
                + "(YARN gives each container a java.io.tmpdir of its own, where leases would see no other executor); the driver checks that "
                + "executors of one node see the same one"));
        spark.add(new AdvisedSetting("spark.chiplet.mode", several ? "executor" : "task",
                several ? "each executor leases one chiplet of its node (host-wide leases, shared by every user) and binds itself there"
                        : "the container already is one chiplet: each task thread is bound to it (its allowed CPUs) while it runs, as the plugin does on any host"));
        settings.addAll(spark);
        StringBuilder xml = new StringBuilder();
        for (AdvisedSetting setting : yarnSite) {
            xml.append("<property>\n  <name>").append(setting.key()).append("</name>\n  <value>").append(setting.value()).append("</value>\n</property>\n");
        }
        StringBuilder properties = new StringBuilder();
        for (AdvisedSetting setting : spark) {
            properties.append(setting.key()).append('=').append(setting.value()).append('\n');
        }
        return new ClusterAdvice(settings, List.of(
                new Fragment("yarn-site.xml on every NodeManager, inside <configuration> (restart them)", "xml", xml.toString()),
                new Fragment("container-executor.cfg beside the binary's etc/hadoop (owned by root, mode 0400), on every NodeManager", "properties",
                        "yarn.nodemanager.linux-container-executor.group=" + YARN_GROUP + "\n"
                                + "banned.users=hdfs,yarn,mapred,bin\n"
                                + "min.user.id=1000\n"
                                + "allowed.system.users=\n"),
                new Fragment("the setuid container-executor binary the NodeManager runs, on every NodeManager (Hadoop's secure-containers setup)", "shell",
                        "chown root:" + YARN_GROUP + " \"$HADOOP_HOME/bin/container-executor\"\n"
                                + "chmod 6050 \"$HADOOP_HOME/bin/container-executor\"\n"),
                new Fragment("spark-defaults.conf or spark-submit --conf", "properties", properties.toString())));
    }

    private static ClusterAdvice standalone(Engine engine, Topology topology, CpuSet allowed, OptionalInt workersPerHost, OptionalLong dataBytes,
            OptionalInt hosts)
    {
        List<AdvisedSetting> settings = new ArrayList<>(Advice.advise(engine, topology, allowed, workersPerHost, dataBytes, hosts));
        List<Fragment> fragments = new ArrayList<>();
        int workers = Advice.workersPerHost(topology, allowed, workersPerHost);
        if (Advice.isSpark(engine)) {
            StringBuilder properties = new StringBuilder();
            for (AdvisedSetting setting : settings) {
                if (setting.key().startsWith("spark.")) {
                    properties.append(setting.key()).append('=').append(setting.value()).append('\n');
                }
            }
            properties.append("# spark.executor.instances = ").append(workers).append(" x the number of hosts\n");
            fragments.add(new Fragment("spark-defaults.conf or spark-submit --conf", "properties", properties.toString()));
        }
        else {
            fragments.add(new Fragment((workers == 1 ? "start the host's one worker" : "start each of the " + workers + " workers of a host")
                    + " on a chiplet lease of its own (host-wide, held while it runs)",
                    "shell", "chiplet exec --policy wicp-local --membind -- bin/launcher run\n"));
        }
        return new ClusterAdvice(settings, fragments);
    }

    static long floorTo(long value, long unit)
    {
        return Math.max(unit, value / unit * unit);
    }

    /** Kubernetes' quantity syntax: {@code 57Gi}, else {@code 14592Mi}. */
    static String kubernetesBytes(long bytes)
    {
        return bytes % GIB == 0 ? bytes / GIB + "Gi" : bytes / MIB + "Mi";
    }

    /** Spark's size syntax in MiB or GiB ({@code 14g}, {@code 14592m}). */
    static String sparkMebibytes(long bytes)
    {
        return bytes % GIB == 0 ? bytes / GIB + "g" : bytes / MIB + "m";
    }
}
