package io.chiplet.topology;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Reads {@code sys/devices/system/node/}: each NUMA node's CPUs, memory and distances, and for CPU-less nodes the
 * CPUs they are local to and their kind of memory (HMAT initiators and bandwidths, memory tiers; a GPU's memory
 * where the NVIDIA driver names the node). Part of one {@link SysfsTopologyReader} discovery.
 */
final class SysfsNumaReader
{
    static final String NODE_DIR = "sys/devices/system/node/";

    /** One directory per GPU the NVIDIA driver drives, named by its PCI address; {@code numa_status} names its memory's node. */
    static final String NVIDIA_GPUS = "proc/driver/nvidia/gpus/";

    static final String PCI_DEVICES = "sys/bus/pci/devices/";

    /** A PCI address as the kernel names devices: domain, bus, device, function ({@code 0004:04:00.0}). */
    private static final java.util.regex.Pattern PCI_ADDRESS = java.util.regex.Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

    private final SysfsFiles files;
    private final Unknowns unknowns;

    SysfsNumaReader(SysfsFiles files, Unknowns unknowns)
    {
        this.files = requireNonNull(files, "files is null");
        this.unknowns = requireNonNull(unknowns, "unknowns is null");
    }

    List<NumaNode> read(CpuSet online)
    {
        List<Integer> ids = nodeDirectories();
        if (ids.isEmpty()) {
            OptionalLong memory = unknowns.degrade("memory of NUMA node 0", () -> files.read("proc/meminfo").flatMap(text -> memTotal("proc/meminfo", text)))
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
            Optional<Optional<Long>> memory = unknowns.degrade("memory of NUMA node " + id, () -> files.read(dir + "meminfo").flatMap(text -> memTotal(dir + "meminfo", text)));
            if (memory.isPresent() && memory.get().isEmpty()) {
                unknowns.add("memory of NUMA node " + id + ": " + dir + "meminfo has no MemTotal");
            }
            TreeMap<Integer, Integer> distances = unknowns.degrade("NUMA distances", () -> distances(dir + "distance", ids)).orElseGet(TreeMap::new);
            nodes.add(new NumaNode(id, cpus, memory.flatMap(value -> value).map(OptionalLong::of).orElse(OptionalLong.empty()), distances));
        }
        return withLocality(withoutContradictions(nodes), online);
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

    /**
     * Gives CPU-less nodes the CPUs they are local to and every node a kind of memory. A node the NVIDIA driver names
     * as a GPU's memory is {@link MemoryKind#GPU}, local to the CPUs of the GPU's PCI device ({@code local_cpus}),
     * else, like any CPU-less node, to its initiators' or its nearest nodes' CPUs. hwloc drops such a node unless
     * {@code HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1}, and then reads it the same way; here it is kept, to be reported:
     * memory binding never chooses GPU memory ({@link ChipletMemory}).
     */
    private List<NumaNode> withLocality(List<NumaNode> nodes, CpuSet online)
    {
        if (nodes.stream().allMatch(NumaNode::hasCpus)) {
            return List.copyOf(nodes);
        }
        Map<Integer, NumaNode> byId = new TreeMap<>();
        nodes.forEach(node -> byId.put(node.id(), node));
        Map<Integer, Integer> tierOf = unknowns.degrade("memory tiers", this::memoryTiers).orElse(Map.of());
        Map<Integer, String> gpuOf = unknowns.degrade("GPU memory nodes", this::gpuMemoryNodes).orElse(Map.of());
        // the CPUs each node's memory is local to as found so far, in id order as hwloc finds them: a CPU-less node's
        // nearest node may be another CPU-less one found before it
        Map<Integer, CpuSet> localSoFar = new TreeMap<>();
        nodes.forEach(node -> localSoFar.put(node.id(), node.cpus()));
        List<NumaNode> result = new ArrayList<>(nodes.size());
        for (NumaNode node : nodes) {
            if (node.hasCpus()) {
                result.add(node);
                continue;
            }
            String dir = NODE_DIR + "node" + node.id() + "/";
            Optional<String> gpu = Optional.ofNullable(gpuOf.get(node.id()));
            CpuSet local = gpu.map(bus -> gpuLocalCpus(node, bus).intersect(online)).orElse(CpuSet.empty());
            List<Integer> initiators = List.of();
            if (local.isEmpty()) {
                initiators = unknowns.degrade("locality of NUMA node " + node.id(), () -> initiators(dir)).orElse(List.of());
                local = initiators.stream().filter(id -> id != node.id()).map(byId::get).filter(java.util.Objects::nonNull).map(NumaNode::cpus)
                        .reduce(CpuSet.empty(), CpuSet::union);
            }
            if (local.isEmpty()) {
                local = nearestCpus(node, nodes, localSoFar, dir);
            }
            localSoFar.put(node.id(), local);
            result.add(node.withLocality(local, gpu.isPresent() ? MemoryKind.GPU : memoryKind(node, dir, initiators, byId, tierOf)));
        }
        return List.copyOf(result);
    }

    /**
     * A CPU-less node's HMAT initiators: {@code access1/initiators} (5.10+: the nearest CPUs, never a Generic Initiator
     * such as a CXL accelerator that has none), else {@code access0/initiators}, as hwloc reads them.
     */
    private List<Integer> initiators(String dir)
    {
        List<Integer> access1 = nodeLinks(dir + "access1/initiators");
        return access1.isEmpty() ? nodeLinks(dir + "access0/initiators") : access1;
    }

    /**
     * Node id to the PCI address of the NVIDIA GPU whose memory it is: each {@code proc/driver/nvidia/gpus/ADDRESS/numa_status}
     * holding a line {@code Node: N} (POWER9 with NVLink2, Grace Hopper). A broken {@code numa_status} is unknown,
     * naming it; the other GPUs are still read.
     */
    private Map<Integer, String> gpuMemoryNodes()
    {
        Map<Integer, String> gpuOf = new TreeMap<>();
        Path gpus = files.resolve(NVIDIA_GPUS);
        if (Files.exists(gpus, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(gpus)) {
            // the driver's directory is there but is no directory (a dump's broken copy): say so, not "no GPU"
            unknowns.add("GPU memory: " + NVIDIA_GPUS + " is not a directory; no GPU's memory node is known");
            return gpuOf;
        }
        for (String address : files.entries(NVIDIA_GPUS)) {
            if (!PCI_ADDRESS.matcher(address).matches()) {
                unknowns.add("GPU memory: " + NVIDIA_GPUS + " holds " + FileText.quote(address) + ", which is no PCI address (like 0004:04:00.0); skipped");
                continue;
            }
            if (!Files.isDirectory(files.resolve(NVIDIA_GPUS + address))) {
                unknowns.add("GPU memory: " + NVIDIA_GPUS + address + " is not a directory; its numa_status is unknown");
                continue;
            }
            String file = NVIDIA_GPUS + address + "/numa_status";
            unknowns.degrade("GPU memory of " + address, () -> files.read(file).flatMap(text -> numaStatusNode(file, text)))
                    .flatMap(node -> node)
                    .ifPresent(node -> gpuOf.putIfAbsent(node, address));
        }
        return gpuOf;
    }

    /**
     * The node a {@code numa_status} names in its line {@code Node: N}; empty without that line or for a negative
     * node (the driver's "none"). hwloc takes {@code atoi} of what follows, so garbage there would make node 0 GPU
     * memory; here it is an error naming the file.
     */
    static Optional<Integer> numaStatusNode(String file, String text)
    {
        int at = text.indexOf("Node:");
        if (at < 0) {
            return Optional.empty();
        }
        int end = at;
        while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\0') {
            end++;
        }
        String value = text.substring(at + "Node:".length(), end).strip();
        int node = SysfsFiles.parseInt(file, value);
        return node < 0 ? Optional.empty() : Optional.of(node);
    }

    /** The CPUs local to the GPU at PCI {@code address}; empty (and said so) when its device files are missing or broken. */
    private CpuSet gpuLocalCpus(NumaNode node, String address)
    {
        String device = PCI_DEVICES + address + "/";
        Optional<Optional<CpuSet>> read = unknowns.degrade("locality of GPU memory node " + node.id(), () -> files.readCpus(device, "local_cpulist", "local_cpus"));
        if (read.isPresent() && read.get().isEmpty()) {
            unknowns.add("locality of GPU memory node " + node.id() + ": " + device + "local_cpus is missing; taken from initiators or distances");
        }
        return read.flatMap(cpus -> cpus).orElse(CpuSet.empty());
    }

    /**
     * Where HMAT says nothing, hwloc's rule ({@code fixup_cpuless_node_locality_from_distances}): the nodes nearest to
     * {@code node} by SLIT distance, CPU-less ones included with the locality found for them so far, give it their CPUs;
     * none do when no other node is nearer than the node itself, or when every other node is as near (a node equally far
     * from all is local to no CPU in particular, not to every CPU). Empty, and said so, when nothing tells.
     */
    private CpuSet nearestCpus(NumaNode node, List<NumaNode> nodes, Map<Integer, CpuSet> localSoFar, String dir)
    {
        int nearest = Integer.MAX_VALUE;
        int atNearest = 0;
        int others = 0;
        for (NumaNode other : nodes) {
            Integer distance = node.distances().get(other.id());
            if (other.id() == node.id() || distance == null) {
                continue;
            }
            others++;
            if (distance < nearest) {
                nearest = distance;
                atNearest = 1;
            }
            else if (distance == nearest) {
                atNearest++;
            }
        }
        String without = "locality of NUMA node " + node.id() + ": it has no CPUs and no " + dir + "access1/initiators or access0/initiators";
        if (others == 0) {
            unknowns.add(without + ", and no distances; local to no CPU");
            return CpuSet.empty();
        }
        Integer own = node.distances().get(node.id());
        if ((own != null && nearest <= own) || (atNearest == others && others > 1)) {
            unknowns.add(without + ", and " + (atNearest == others && others > 1
                    ? "every other node is as near (distance " + nearest + ")"
                    : "no other node is nearer than itself (distance " + own + ")") + "; local to no CPU in particular, as hwloc reads it");
            return CpuSet.empty();
        }
        int min = nearest;
        CpuSet cpus = nodes.stream().filter(other -> other.id() != node.id() && Integer.valueOf(min).equals(node.distances().get(other.id())))
                .map(other -> localSoFar.getOrDefault(other.id(), CpuSet.empty())).reduce(CpuSet.empty(), CpuSet::union);
        if (cpus.isEmpty()) {
            unknowns.add(without + ", and its nearest nodes (distance " + nearest + ") have no CPUs of known locality; local to no CPU");
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
        return unknowns.degrade("HMAT bandwidth", () -> optionalLong(file)).orElse(OptionalLong.empty());
    }

    /** Node id to memory tier number, from {@code sys/devices/virtual/memory_tiering/memory_tierN/nodelist}. */
    private Map<Integer, Integer> memoryTiers()
    {
        String tiers = "sys/devices/virtual/memory_tiering/";
        Map<Integer, Integer> tierOf = new TreeMap<>();
        for (String name : files.entries(tiers)) {
            int tier = SysfsFiles.numberAfter(name, "memory_tier");
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
        for (String name : files.entries(directory)) {
            int id = SysfsFiles.numberAfter(name, "node");
            if (id >= 0) {
                ids.add(id);
            }
        }
        ids.sort(null);
        return ids;
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
                int id = SysfsFiles.numberAfter(entry.getFileName().toString(), "node");
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

    private OptionalLong optionalLong(String file)
    {
        return files.read(file).map(text -> OptionalLong.of(SysfsFiles.parseLong(file, text))).orElse(OptionalLong.empty());
    }
}
