package io.chiplet.binding;

import io.chiplet.affinity.MemoryPolicy;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * How strictly a bound thread's memory keeps to its nodes: the one place that turns core's memory nodes
 * ({@code MemoryBinding}, {@code WorkerPlacement.memoryNodeToBind}) into a kernel memory policy.
 */
public enum MemoryEnforcement
{
    /**
     * {@code MPOL_PREFERRED}: the node first, and a full node spills to others. The plugins' choice: a placement must
     * never make a user's job fail, and {@code MPOL_BIND} on a full node invokes the OOM killer. With several nodes
     * there is no single preferred one: memory is left to first touch, which lands on the nodes of the CPUs the thread
     * is bound to anyway.
     */
    PREFERRED,
    /** {@code MPOL_BIND}: only these nodes, as {@code numactl --membind}; {@code chiplet exec --membind}, which the user asked for by name. */
    BOUND;

    /**
     * The policy for one worker's memory node ({@code WorkerPlacement.memoryNodeToBind()}); empty when it has none. The one
     * step from a worker's node to a kernel policy, for every runner that binds worker threads.
     */
    public Optional<MemoryPolicy> policyFor(OptionalInt node)
    {
        requireNonNull(node, "node is null");
        SortedSet<Integer> nodes = new TreeSet<>();
        node.ifPresent(nodes::add);
        return policyFor(nodes);
    }

    /** The policy for {@code nodes}; empty when memory is left alone (no nodes, or {@link #PREFERRED} with several). */
    public Optional<MemoryPolicy> policyFor(SortedSet<Integer> nodes)
    {
        requireNonNull(nodes, "nodes is null");
        if (nodes.isEmpty()) {
            return Optional.empty();
        }
        return switch (this) {
            case PREFERRED -> nodes.size() == 1 ? Optional.of(MemoryPolicy.preferred(nodes.first())) : Optional.empty();
            case BOUND -> Optional.of(MemoryPolicy.bind(nodes));
        };
    }
}
