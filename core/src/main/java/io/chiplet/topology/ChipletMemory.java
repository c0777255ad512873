package io.chiplet.topology;

import java.util.BitSet;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * Which NUMA node each chiplet's memory is bound to, for the kind of memory the user asked for (the plugins'
 * {@code memory.kind} setting, {@code chiplet exec --memory-kind}). {@link MemoryKind#DRAM} is every chiplet's own
 * node, as binding has always been; {@link MemoryKind#HBM} or {@link MemoryKind#CXL_PMEM} is the node of that kind
 * local to the chiplet ({@link Topology#memoryNodeFor}: the HBM beside its socket in flat mode), and the chiplet's own
 * node where none is, which {@link #shortfall()} says. Pure: a topology in, a table out.
 *
 * @param nodeByChiplet chiplet id to node id; -1 where the chiplet's own node is unknown (no node lists its CPUs)
 * @param withoutKind the chiplets no node of {@code kind} is local to (they keep their own node)
 */
public record ChipletMemory(MemoryKind kind, SortedMap<Integer, Integer> nodeByChiplet, SortedSet<Integer> withoutKind)
{
    /** The kinds a user may ask for: not GPU memory, and not a node whose kind nothing told. */
    public static final Set<MemoryKind> SELECTABLE = Collections.unmodifiableSet(EnumSet.of(MemoryKind.DRAM, MemoryKind.HBM, MemoryKind.CXL_PMEM));

    public ChipletMemory
    {
        requireNonNull(kind, "kind is null");
        nodeByChiplet = Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(nodeByChiplet, "nodeByChiplet is null")));
        withoutKind = Collections.unmodifiableSortedSet(new TreeSet<>(requireNonNull(withoutKind, "withoutKind is null")));
    }

    /**
     * @throws IllegalArgumentException when {@code kind} is not {@linkplain #SELECTABLE selectable}
     */
    public static ChipletMemory of(Topology topology, MemoryKind kind)
    {
        requireNonNull(topology, "topology is null");
        if (!SELECTABLE.contains(requireNonNull(kind, "kind is null"))) {
            throw new IllegalArgumentException("memory of kind " + kind.jsonName() + " is not bound to; expected one of dram, hbm, cxl-pmem");
        }
        SortedMap<Integer, Integer> nodes = new TreeMap<>();
        SortedSet<Integer> without = new TreeSet<>();
        for (Chiplet chiplet : topology.chiplets()) {
            // DRAM is the chiplet's own node by definition: no lookup that could ever choose another one
            int node = kind == MemoryKind.DRAM ? chiplet.numaNode() : topology.memoryNodeFor(chiplet, kind);
            if (kind != MemoryKind.DRAM && topology.numaNode(node).map(NumaNode::kind).orElse(MemoryKind.UNKNOWN) != kind) {
                without.add(chiplet.id());
            }
            nodes.put(chiplet.id(), node);
        }
        return new ChipletMemory(kind, nodes, without);
    }

    /**
     * The node chiplet {@code chipletId}'s memory goes to; {@code ownNode} for a chiplet this table does not hold. For
     * {@code io.chiplet.placement.MemoryBinding}, which applies the binding rule to it: adapters ask it, not this table.
     */
    public int nodeOf(int chipletId, int ownNode)
    {
        return nodeByChiplet.getOrDefault(chipletId, ownNode);
    }

    /** What the choice could not honour, one sentence for a log line; empty when every chiplet got {@link #kind}. */
    public Optional<String> shortfall()
    {
        if (withoutKind.isEmpty()) {
            return Optional.empty();
        }
        String subject = withoutKind.size() == nodeByChiplet.size() ? "any chiplet" : "chiplets " + ids(withoutKind);
        return Optional.of("no " + kind.jsonName() + " NUMA node of known locality is local to " + subject
                + "; their memory stays on their own NUMA node");
    }

    /** Which node serves which chiplets, e.g. {@code node 2 for chiplets 0-7, node 3 for chiplets 8-15}. */
    public String describe()
    {
        SortedMap<Integer, SortedSet<Integer>> chipletsByNode = new TreeMap<>();
        for (Map.Entry<Integer, Integer> entry : nodeByChiplet.entrySet()) {
            chipletsByNode.computeIfAbsent(entry.getValue(), node -> new TreeSet<>()).add(entry.getKey());
        }
        StringBuilder text = new StringBuilder();
        chipletsByNode.forEach((node, chiplets) -> text.append(text.isEmpty() ? "" : ", ")
                .append(node < 0 ? "no known node" : "node " + node).append(" for chiplet").append(chiplets.size() == 1 ? " " : "s ").append(ids(chiplets)));
        return text.toString();
    }

    private static String ids(SortedSet<Integer> ids)
    {
        BitSet bits = new BitSet();
        ids.forEach(bits::set);
        return CpuSet.fromBitSet(bits).toList();
    }
}
