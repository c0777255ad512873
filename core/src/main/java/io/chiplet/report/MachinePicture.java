package io.chiplet.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Core;
import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * What {@link TopologySvg} draws of a machine: its chiplets (L3 groups) with their package, NUMA node, L3 size and
 * cores (each a set of CPUs, SMT siblings together), which CPUs the process may use, and the NUMA nodes' memory. A
 * {@link Topology} gives it ({@link #of}); an executor writes it into the Spark event log as compact JSON
 * ({@link #json()}, read back by {@link #parse}), so that the Chiplet tab and {@code chiplet report} draw the hosts of
 * a run they never saw. A few kilobytes for a machine of 256 CPUs.
 *
 * @param kinds the core kinds' names, fastest first; empty on a machine whose cores are all alike
 * @param nodeMemoryBytes memory per NUMA node id, where the source knew it
 * @param memoryOnlyNodes NUMA nodes with memory and no CPUs (CXL, HBM)
 */
public record MachinePicture(String source, CpuSet online, CpuSet allowed, List<ChipletCpus> chiplets, List<String> kinds, Map<Integer, Long> nodeMemoryBytes,
        List<Integer> memoryOnlyNodes)
{
    static final String KIND = "chiplet.machine-picture/1";

    /**
     * One chiplet.
     *
     * @param cores its cores' CPUs, each core's CPUs together
     * @param coreKinds each core's kind as an index into {@link #kinds()}; empty where the cores are all alike
     */
    public record ChipletCpus(int id, int packageId, int numaNode, long l3Bytes, List<CpuSet> cores, List<Integer> coreKinds)
    {
        public ChipletCpus
        {
            cores = List.copyOf(cores);
            coreKinds = List.copyOf(coreKinds);
            if (!coreKinds.isEmpty() && coreKinds.size() != cores.size()) {
                throw new IllegalArgumentException("chiplet " + id + ": " + coreKinds.size() + " core kinds for " + cores.size() + " cores");
            }
        }

        public CpuSet cpus()
        {
            return cores.stream().reduce(CpuSet.empty(), CpuSet::union);
        }
    }

    public MachinePicture
    {
        requireNonNull(source, "source is null");
        requireNonNull(online, "online is null");
        requireNonNull(allowed, "allowed is null");
        chiplets = List.copyOf(chiplets);
        kinds = List.copyOf(kinds);
        nodeMemoryBytes = Map.copyOf(nodeMemoryBytes);
        memoryOnlyNodes = List.copyOf(memoryOnlyNodes);
    }

    public static MachinePicture of(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        List<String> kinds = topology.isHybrid() ? topology.coreKinds().stream().sorted((a, b) -> Integer.compare(a.rank(), b.rank())).map(CoreKind::name).toList() : List.of();
        List<ChipletCpus> chiplets = new ArrayList<>();
        for (Chiplet chiplet : topology.chiplets()) {
            List<Core> cores = new ArrayList<>();
            CpuSet covered = CpuSet.empty();
            for (Core core : topology.cores()) {
                if (chiplet.cpus().contains(core.firstCpu())) {
                    CpuSet cpus = core.cpus().intersect(chiplet.cpus());
                    cores.add(new Core(core.packageId(), core.coreId(), cpus, core.kind()));
                    covered = covered.union(cpus);
                }
            }
            // A source that knows no cores still shows every CPU of the chiplet.
            chiplet.cpus().minus(covered).stream().forEach(cpu -> cores.add(new Core(chiplet.packageId(), -1, CpuSet.of(cpu), Optional.empty())));
            cores.sort((a, b) -> Integer.compare(a.cpus().first(), b.cpus().first()));
            List<Integer> coreKinds = kinds.isEmpty() ? List.of() : cores.stream().map(core -> Math.max(0, core.kind().map(kinds::indexOf).orElse(0))).toList();
            chiplets.add(new ChipletCpus(chiplet.id(), chiplet.packageId(), chiplet.numaNode(), chiplet.l3Bytes(), cores.stream().map(Core::cpus).toList(), coreKinds));
        }
        Map<Integer, Long> memory = new TreeMap<>();
        for (NumaNode node : topology.numaNodes()) {
            node.memoryBytes().ifPresent(bytes -> memory.put(node.id(), bytes));
        }
        List<Integer> memoryOnly = topology.numaNodes().stream().filter(node -> !node.hasCpus()).map(NumaNode::id).toList();
        return new MachinePicture(topology.source(), topology.online(), topology.allowed(), chiplets, kinds, memory, memoryOnly);
    }

    /** The chiplet holding {@code cpu}. */
    public Optional<ChipletCpus> chipletOf(int cpu)
    {
        return chiplets.stream().filter(chiplet -> chiplet.cores().stream().anyMatch(core -> core.contains(cpu))).findFirst();
    }

    /** One line of JSON, what the event log carries. */
    public String json()
    {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("kind", KIND);
            json.writeStringField("source", source);
            json.writeStringField("online", online.toList());
            json.writeStringField("allowed", allowed.toList());
            json.writeArrayFieldStart("kinds");
            for (String kind : kinds) {
                json.writeString(kind);
            }
            json.writeEndArray();
            json.writeObjectFieldStart("nodeMemoryBytes");
            for (Map.Entry<Integer, Long> node : new TreeMap<>(nodeMemoryBytes).entrySet()) {
                json.writeNumberField(Integer.toString(node.getKey()), node.getValue());
            }
            json.writeEndObject();
            json.writeArrayFieldStart("memoryOnlyNodes");
            for (int node : memoryOnlyNodes) {
                json.writeNumber(node);
            }
            json.writeEndArray();
            json.writeArrayFieldStart("chiplets");
            for (ChipletCpus chiplet : chiplets) {
                json.writeStartObject();
                json.writeNumberField("id", chiplet.id());
                json.writeNumberField("package", chiplet.packageId());
                json.writeNumberField("node", chiplet.numaNode());
                json.writeNumberField("l3Bytes", chiplet.l3Bytes());
                json.writeArrayFieldStart("cores");
                for (CpuSet core : chiplet.cores()) {
                    json.writeString(core.toList());
                }
                json.writeEndArray();
                if (!chiplet.coreKinds().isEmpty()) {
                    json.writeArrayFieldStart("coreKinds");
                    for (int kind : chiplet.coreKinds()) {
                        json.writeNumber(kind);
                    }
                    json.writeEndArray();
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** A picture {@link #json()} wrote; an {@link IllegalArgumentException} saying what is wrong otherwise. */
    public static MachinePicture parse(String text)
    {
        Map<String, Object> json = JsonValues.parseObject(text);
        if (!KIND.equals(json.get("kind"))) {
            throw new IllegalArgumentException("expected a machine picture of kind " + KIND + " but was " + json.get("kind"));
        }
        List<ChipletCpus> chiplets = new ArrayList<>();
        for (Object entry : list(json, "chiplets")) {
            if (!(entry instanceof Map<?, ?> chiplet)) {
                throw new IllegalArgumentException("expected each chiplet as a JSON object");
            }
            List<CpuSet> cores = list(chiplet, "cores").stream().map(core -> CpuSet.parseList(String.valueOf(core))).toList();
            List<Integer> coreKinds = list(chiplet, "coreKinds").stream().map(kind -> (int) number(kind)).toList();
            chiplets.add(new ChipletCpus((int) number(chiplet.get("id")), (int) number(chiplet.get("package")), (int) number(chiplet.get("node")),
                    number(chiplet.get("l3Bytes")), cores, coreKinds));
        }
        Map<Integer, Long> memory = new TreeMap<>();
        if (json.get("nodeMemoryBytes") instanceof Map<?, ?> nodes) {
            nodes.forEach((node, bytes) -> memory.put(Integer.parseInt(String.valueOf(node)), number(bytes)));
        }
        return new MachinePicture(String.valueOf(json.getOrDefault("source", "")), CpuSet.parseList(String.valueOf(json.getOrDefault("online", ""))),
                CpuSet.parseList(String.valueOf(json.getOrDefault("allowed", ""))), chiplets, list(json, "kinds").stream().map(String::valueOf).toList(), memory,
                list(json, "memoryOnlyNodes").stream().map(node -> (int) number(node)).toList());
    }

    private static List<?> list(Map<?, ?> object, String field)
    {
        Object value = object.get(field);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException("expected '" + field + "' as a JSON array");
        }
        return list;
    }

    private static long number(Object value)
    {
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException("expected a number but was " + value);
        }
        return number.longValue();
    }
}
