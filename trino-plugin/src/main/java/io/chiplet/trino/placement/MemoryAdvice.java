package io.chiplet.trino.placement;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.topology.MemoryKind;

import java.util.Optional;
import java.util.SortedSet;

import static java.util.Objects.requireNonNull;

/**
 * What the operator must do about memory that the plugin cannot: a thread's memory policy can only be set by the
 * thread itself, and Trino's query threads run no code of ours, so core's per-thread memory node
 * ({@link ThreadAssignment#memoryNode()}) is never applied. Under {@code dram} first touch puts a thread's memory on the
 * node of its CPUs, which is core's node; memory of another kind ({@code hbm}, {@code cxl-pmem}) is never reached
 * that way, so the nodes core chose for this node's chiplets are named for a JVM-wide binding. Pure.
 */
public final class MemoryAdvice
{
    private MemoryAdvice() {}

    /**
     * The advice to log once, or empty when there is nothing to do by hand.
     *
     * @param memory core's memory rule for the node (whether memory is bound at all)
     * @param kind the asked-for memory kind
     * @param nodes core's nodes for this node's leased chiplets ({@code ChipletLock.memoryNodesToBind()})
     */
    public static Optional<String> of(MemoryBinding memory, MemoryKind kind, SortedSet<Integer> nodes)
    {
        requireNonNull(memory, "memory is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(nodes, "nodes is null");
        if (!memory.binds() || kind == MemoryKind.DRAM) {
            return Optional.empty();
        }
        return Optional.of("a thread's memory policy can only be set by the thread itself and Trino's query threads run no code of ours. The "
                + kind.jsonName() + " NUMA nodes for this node's chiplets are " + nodes + memory.shortfall().map(problem -> " (" + problem + ")").orElse("")
                + "; start the JVM bound to them (numactl --preferred=N for one node, --membind=LIST for several)");
    }
}
