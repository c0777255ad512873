package io.chiplet.placement;

import io.chiplet.topology.ChipletMemory;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;

import java.util.Collections;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The one rule for binding a worker's memory: whether to bind at all, and to which node. Memory is bound only when
 * the user asked for it ({@code memory.bind}, {@code --membind}) and this process may use more than one node: on a
 * single node there is no choice to make, and skipping the policy saves two syscalls per bind. The node is the one of
 * the asked-for {@link MemoryKind} local to the worker's chiplet ({@link ChipletMemory}), and only a node this process
 * may allocate from ({@code allowedNodes}: the topology's {@link Topology#allowedMemoryNodes()}); a chiplet whose node is unknown or not
 * allowed gets no memory policy rather than one the kernel would refuse. Pure.
 *
 * @param requested whether the user asked for memory binding
 * @param memory the node each chiplet's memory goes to, for the asked-for kind
 * @param allowedNodes the NUMA nodes this process may allocate from
 */
public record MemoryBinding(boolean requested, ChipletMemory memory, SortedSet<Integer> allowedNodes)
{
    public MemoryBinding
    {
        requireNonNull(memory, "memory is null");
        allowedNodes = Collections.unmodifiableSortedSet(new TreeSet<>(requireNonNull(allowedNodes, "allowedNodes is null")));
    }

    /**
     * The rule for {@code topology}, under its process's limit: memory goes only to
     * {@link Topology#allowedMemoryNodes()} (the cgroup's {@code cpuset.mems}, {@code Mems_allowed_list}).
     *
     * @throws IllegalArgumentException when {@code kind} is not one a user may bind to ({@link ChipletMemory#SELECTABLE})
     */
    public static MemoryBinding of(Topology topology, boolean requested, MemoryKind kind)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(kind, "kind is null");
        return new MemoryBinding(requested, ChipletMemory.of(topology, kind), topology.allowedMemoryNodes());
    }

    /** No memory binding: the user did not ask for it. */
    public static MemoryBinding off(Topology topology)
    {
        return of(topology, false, MemoryKind.DRAM);
    }

    /** Whether any worker's memory is bound: asked for, and more than one node to choose from. */
    public boolean binds()
    {
        return requested && allowedNodes.size() > 1;
    }

    /**
     * The node to bind the memory of a worker on chiplet {@code chipletId} to; empty when memory is not bound
     * ({@link #binds()}) or that node is unknown or not allowed here.
     *
     * @param ownNode the chiplet's own node, for a chiplet the table does not hold
     */
    public OptionalInt nodeFor(int chipletId, int ownNode)
    {
        return allowedNode(memory.nodeOf(chipletId, ownNode));
    }

    /** {@code node} when memory is bound and {@code node} is allowed here; for a worker on no single chiplet ({@code win}). */
    public OptionalInt allowedNode(int node)
    {
        return binds() && node >= 0 && allowedNodes.contains(node) ? OptionalInt.of(node) : OptionalInt.empty();
    }

    /** The kind of memory asked for ({@code memory.kind}, {@code --memory-kind}). */
    public MemoryKind kind()
    {
        return memory.kind();
    }

    /**
     * Whether a node of the asked-for kind is local to chiplet {@code chipletId}; false when it keeps its own node
     * instead (the chiplets {@link #shortfall()} names). Always true for {@link MemoryKind#DRAM}.
     */
    public boolean hasNodeOfKind(int chipletId)
    {
        return !memory.withoutKind().contains(chipletId);
    }

    /** Which node serves which chiplets, for a log line: e.g. {@code node 2 for chiplets 0-7, node 3 for chiplets 8-15}. */
    public String describe()
    {
        return memory.describe();
    }

    /**
     * What the asked-for kind could not honour, for one warning: the chiplets that keep their own node, or, for a kind
     * other than DRAM where memory is not bound at all, that the kind changes nothing (a setting that cannot apply is
     * said, not passed over).
     */
    public Optional<String> shortfall()
    {
        if (binds()) {
            return memory.shortfall();
        }
        if (memory.kind() == MemoryKind.DRAM) {
            return Optional.empty();
        }
        return Optional.of("has no effect: memory is not bound here (" + (requested
                ? allowedNodes.size() + " NUMA node" + (allowedNodes.size() == 1 ? "" : "s") + " this process may use, no choice to make"
                : "memory binding is off") + ")");
    }
}
