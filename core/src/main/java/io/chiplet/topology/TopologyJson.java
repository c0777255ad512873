package io.chiplet.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Writes a {@link Topology} as the {@code chiplet.topology/v1} JSON document of
 * {@code ../shared/spec/topology-json.md}. Tools outside the project read this, so the contract's fields come
 * first, in the contract's order, with the contract's names; fields beyond the contract follow them.
 * <p>
 * Facts the source could not tell are written as JSON {@code null} (a NUMA node's memory, a core's kind on a
 * machine whose cores are all alike) rather than left out, so readers find every contract field on every entry.
 */
public final class TopologyJson
{
    public static final String SCHEMA = "chiplet.topology/v1";

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private TopologyJson() {}

    /** The document, pretty-printed with {@code \n} line ends and a final newline. */
    public static String toJson(Topology topology)
    {
        StringWriter out = new StringWriter();
        write(topology, out);
        return out.toString();
    }

    public static void write(Topology topology, Writer out)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(out, "out is null");
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            // Leave the caller's writer open: it is often System.out.
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.setPrettyPrinter(prettyPrinter());
            writeTopology(json, topology);
            json.flush();
            out.write('\n');
            out.flush();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write the topology JSON: " + e.getMessage(), e);
        }
    }

    private static DefaultPrettyPrinter prettyPrinter()
    {
        // "key": value, arrays one element per line, "[]" and "{}" when empty: what people and diff tools expect.
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(separators);
        printer.indentObjectsWith(indenter);
        printer.indentArraysWith(indenter);
        return printer;
    }

    private static void writeTopology(JsonGenerator json, Topology topology)
            throws IOException
    {
        json.writeStartObject();
        json.writeStringField("schema", SCHEMA);
        json.writeStringField("source", topology.source());

        json.writeObjectFieldStart("cpus");
        json.writeStringField("online", topology.online().toList());
        json.writeStringField("allowed", topology.allowed().toList());
        json.writeStringField("present", topology.present().toList());
        json.writeStringField("offline", topology.offline().toList());
        json.writeEndObject();

        json.writeArrayFieldStart("packages");
        for (CpuPackage cpuPackage : topology.packages()) {
            if (cpuPackage.id() < 0) {
                // the contract: CPUs without a package id belong to no package; such packages are in packagesWithoutId
                continue;
            }
            json.writeStartObject();
            json.writeNumberField("id", cpuPackage.id());
            json.writeStringField("cpus", cpuPackage.cpus().toList());
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("numaNodes");
        for (NumaNode node : topology.numaNodes()) {
            json.writeStartObject();
            json.writeNumberField("id", node.id());
            json.writeStringField("cpus", node.cpus().toList());
            json.writeFieldName("memoryBytes");
            if (node.memoryBytes().isPresent()) {
                json.writeNumber(node.memoryBytes().getAsLong());
            }
            else {
                json.writeNull();
            }
            json.writeObjectFieldStart("distances");
            for (Map.Entry<Integer, Integer> distance : node.distances().entrySet()) {
                json.writeNumberField(String.valueOf(distance.getKey()), distance.getValue());
            }
            json.writeEndObject();
            // beyond the contract: where a CPU-less node's memory is local, and what kind of memory it is
            json.writeStringField("localCpus", node.localCpus().toList());
            json.writeStringField("memoryKind", node.kind().jsonName());
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("caches");
        for (Cache cache : topology.caches()) {
            if (!isContractCache(cache, topology.online())) {
                continue;
            }
            json.writeStartObject();
            json.writeNumberField("level", cache.level());
            json.writeStringField("cpus", cache.cpus().intersect(topology.online()).toList());
            json.writeNumberField("sizeBytes", cache.sizeBytes());
            json.writeStringField("type", cache.type().name().toLowerCase(Locale.ROOT));
            json.writeNumberField("lineSizeBytes", cache.lineSizeBytes());
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("cores");
        for (Core core : topology.cores()) {
            json.writeStartObject();
            json.writeStringField("cpus", core.cpus().toList());
            json.writeFieldName("kind");
            if (core.kind().isPresent()) {
                json.writeString(core.kind().get());
            }
            else {
                json.writeNull();
            }
            json.writeNumberField("package", core.packageId());
            json.writeNumberField("coreId", core.coreId());
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("coreKinds");
        for (CoreKind kind : topology.coreKinds()) {
            json.writeStartObject();
            json.writeStringField("name", kind.name());
            json.writeStringField("cpus", kind.cpus().toList());
            json.writeNumberField("rank", kind.rank());
            if (kind.model().isPresent()) {
                json.writeStringField("model", kind.model().get());
            }
            else {
                json.writeNullField("model");
            }
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("chiplets");
        for (Chiplet chiplet : topology.chiplets()) {
            json.writeStartObject();
            json.writeNumberField("id", chiplet.id());
            json.writeNumberField("package", chiplet.packageId());
            json.writeNumberField("numaNode", chiplet.numaNode());
            json.writeStringField("cpus", chiplet.cpus().toList());
            json.writeNumberField("l3Bytes", chiplet.l3Bytes());
            json.writeStringField("basis", chiplet.basis().jsonName());
            json.writeEndObject();
        }
        json.writeEndArray();

        // Beyond the contract.
        json.writeStringField("l3Placement", topology.l3Placement().jsonName());
        json.writeStringField("allowedNumaNodes", CpuSet.of(topology.allowedMemoryNodes().stream().mapToInt(Integer::intValue).toArray()).toList());
        json.writeArrayFieldStart("packagesWithoutId");
        for (CpuPackage cpuPackage : topology.packages()) {
            if (cpuPackage.id() < 0) {
                json.writeStartObject();
                json.writeStringField("cpus", cpuPackage.cpus().toList());
                json.writeEndObject();
            }
        }
        json.writeEndArray();

        json.writeArrayFieldStart("dies");
        for (Die die : topology.dies()) {
            json.writeStartObject();
            json.writeNumberField("package", die.packageId());
            json.writeNumberField("id", die.id());
            json.writeStringField("cpus", die.cpus().toList());
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("clusters");
        for (Cluster cluster : topology.clusters()) {
            json.writeStartObject();
            json.writeNumberField("package", cluster.packageId());
            json.writeNumberField("id", cluster.id());
            json.writeStringField("cpus", cluster.cpus().toList());
            json.writeEndObject();
        }
        json.writeEndArray();

        json.writeArrayFieldStart("unknowns");
        for (String unknown : topology.unknowns()) {
            json.writeString(unknown);
        }
        json.writeEndArray();

        json.writeEndObject();
    }

    /** The contract lists data and unified caches of level 2 and above that hold at least one online CPU. */
    private static boolean isContractCache(Cache cache, CpuSet online)
    {
        return cache.level() >= 2
                && cache.type() != CacheType.INSTRUCTION
                && cache.cpus().intersects(online);
    }
}
