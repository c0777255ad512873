package io.chiplet.topology;

import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import static io.chiplet.topology.HwlocXmlElements.children;
import static java.util.Objects.requireNonNull;

/**
 * The NUMA nodes of an hwloc XML file: each {@code NUMANode} object's memory, kind and local CPUs, and the latency
 * matrix between them from hwloc 2.x {@code <distances2>} or hwloc 1.x {@code <distances>}. What the file leaves out
 * (a node's memory size, the matrix) becomes a sentence in the topology's unknowns.
 */
final class HwlocXmlNumaReader
{
    // hwloc_distances_kind_e: HWLOC_DISTANCES_KIND_MEANS_LATENCY
    private static final int DISTANCES_KIND_MEANS_LATENCY = 4;

    private final Element topologyElement;
    private final List<Element> numaElements;
    private final HwlocXmlElements elements;
    private final HwlocXmlCpus cpus;
    private final List<String> unknowns;

    /**
     * @param topologyElement the document's {@code <topology>}, which holds the distance matrices
     * @param numaElements the {@code NUMANode} objects in document order
     * @param unknowns where a fact the file lacks is written down
     */
    HwlocXmlNumaReader(Element topologyElement, List<Element> numaElements, HwlocXmlElements elements, HwlocXmlCpus cpus, List<String> unknowns)
    {
        this.topologyElement = requireNonNull(topologyElement, "topologyElement is null");
        this.numaElements = List.copyOf(numaElements);
        this.elements = requireNonNull(elements, "elements is null");
        this.cpus = requireNonNull(cpus, "cpus is null");
        this.unknowns = requireNonNull(unknowns, "unknowns is null");
    }

    /** The nodes by id; a node sharing its CPUs with a lower one (a memory tier) is CPU-less, local to them. */
    List<NumaNode> nodes()
    {
        Map<Integer, Map<Integer, Integer>> distances = distances();
        List<Integer> withoutMemory = new ArrayList<>();
        List<NumaNode> nodes = new ArrayList<>();
        CpuSet withNode = CpuSet.empty();
        List<Element> inIdOrder = new ArrayList<>(numaElements);
        inIdOrder.sort(Comparator.comparingInt(elements::osIndex));
        for (Element element : inIdOrder) {
            int id = elements.osIndex(element);
            OptionalLong memory = element.hasAttribute("local_memory") ? OptionalLong.of(elements.longAttribute(element, "local_memory")) : OptionalLong.empty();
            if (memory.isPresent() && memory.getAsLong() < 0) {
                throw elements.invalid(element, "local_memory", "a non-negative byte count");
            }
            if (memory.isEmpty()) {
                withoutMemory.add(id);
            }
            // hwloc gives a CPU-less node (HBM, CXL, GPU memory) the cpuset of the CPUs it is local to
            CpuSet local = cpus.of(element);
            String subtype = element.getAttribute("subtype");
            MemoryKind kind = switch (subtype) {
                case "GPUMemory" -> MemoryKind.GPU;
                case "MCDRAM", "HBM" -> MemoryKind.HBM;
                case "NVM", "CXL-DRAM", "CXLMem" -> MemoryKind.CXL_PMEM;
                case "DRAM" -> MemoryKind.DRAM;
                default -> subtype.isEmpty() && !local.isEmpty() ? MemoryKind.DRAM : MemoryKind.UNKNOWN;
            };
            // hwloc gives several nodes one cpuset where memory tiers share CPUs (DRAM, then HBM or CXL): the first
            // node in id order holds those CPUs, the others are CPU-less nodes local to them, so no CPU is in two
            boolean cpuLess = local.isEmpty() || local.intersects(withNode);
            withNode = withNode.union(local);
            MemoryKind memoryKind = cpuLess && kind == MemoryKind.DRAM && subtype.isEmpty() ? MemoryKind.UNKNOWN : kind;
            nodes.add(new NumaNode(id, cpuLess ? CpuSet.empty() : local, memory, new TreeMap<>(distances.getOrDefault(id, Map.of())), local, memoryKind));
        }
        if (!withoutMemory.isEmpty()) {
            unknowns.add("NUMA memory: " + elements.file() + " records no local_memory for node(s) " + withoutMemory);
        }
        if (nodes.size() > 1 && distances.isEmpty()) {
            unknowns.add("NUMA distances: " + elements.file() + " has no NUMA latency matrix");
        }
        return nodes.stream().sorted(Comparator.comparingInt(NumaNode::id)).toList();
    }

    /** Distances by node id then node id, from hwloc 2.x {@code <distances2>} or hwloc 1.x {@code <distances>}. */
    private Map<Integer, Map<Integer, Integer>> distances()
    {
        for (Element element : children(topologyElement, "distances2")) {
            if (element.getAttribute("type").equals("NUMANode") && isLatency(element)) {
                return distances2(element);
            }
        }
        var legacy = topologyElement.getElementsByTagName("distances");
        if (legacy.getLength() > 0) {
            return legacyDistances((Element) legacy.item(0));
        }
        return Map.of();
    }

    private boolean isLatency(Element distances)
    {
        if (distances.getAttribute("name").equals("NUMALatency")) {
            return true;
        }
        return distances.hasAttribute("kind") && (elements.intAttribute(distances, "kind") & DISTANCES_KIND_MEANS_LATENCY) != 0;
    }

    private Map<Integer, Map<Integer, Integer>> distances2(Element element)
    {
        int count = elements.intAttribute(element, "nbobjs");
        List<Long> indexes = elements.numbers(element, "indexes");
        List<Long> values = elements.numbers(element, "u64values");
        if (indexes.size() != count || values.size() != (long) count * count) {
            throw new TopologyException("expected " + count + " indexes and " + count * count + " values in <distances2> of " + elements.file()
                    + " but found " + indexes.size() + " and " + values.size());
        }
        List<Integer> ids = new ArrayList<>();
        String indexing = element.getAttribute("indexing");
        for (long index : indexes) {
            ids.add(switch (indexing) {
                case "os" -> elements.toInt(index, "<indexes> of <distances2>");
                case "gp" -> nodeIdOfGpIndex(index);
                default -> throw elements.invalid(element, "indexing", "os or gp");
            });
        }
        Map<Integer, Map<Integer, Integer>> matrix = new TreeMap<>();
        for (int from = 0; from < count; from++) {
            Map<Integer, Integer> row = matrix.computeIfAbsent(ids.get(from), key -> new TreeMap<>());
            for (int to = 0; to < count; to++) {
                row.put(ids.get(to), elements.toInt(values.get(from * count + to), "<u64values> of <distances2>"));
            }
        }
        return matrix;
    }

    private int nodeIdOfGpIndex(long gpIndex)
    {
        for (Element node : numaElements) {
            if (node.hasAttribute("gp_index") && elements.longAttribute(node, "gp_index") == gpIndex) {
                return elements.osIndex(node);
            }
        }
        throw new TopologyException("expected a NUMANode with gp_index " + gpIndex + " in " + elements.file() + " (named by <distances2>) but found none");
    }

    /**
     * hwloc 1.x: {@code <latency value>} children, relative to {@code latency_base}, between the NUMA nodes in
     * their logical (document) order.
     */
    private Map<Integer, Map<Integer, Integer>> legacyDistances(Element element)
    {
        int count = elements.intAttribute(element, "nbobjs");
        List<Element> latencies = children(element, "latency");
        if (count != numaElements.size() || latencies.size() != count * count) {
            unknowns.add("NUMA distances: the hwloc 1.x <distances> of " + elements.file() + " do not cover the " + numaElements.size() + " NUMA nodes; ignored");
            return Map.of();
        }
        double base = element.hasAttribute("latency_base") ? elements.doubleAttribute(element, "latency_base") : 1;
        Map<Integer, Map<Integer, Integer>> matrix = new TreeMap<>();
        for (int from = 0; from < count; from++) {
            Map<Integer, Integer> row = matrix.computeIfAbsent(elements.osIndex(numaElements.get(from)), key -> new TreeMap<>());
            for (int to = 0; to < count; to++) {
                double latency = elements.doubleAttribute(latencies.get(from * count + to), "value");
                row.put(elements.osIndex(numaElements.get(to)), (int) Math.round(latency * base));
            }
        }
        return matrix;
    }
}
