package io.chiplet.spark.placement;

import io.chiplet.placement.Assignment;
import io.chiplet.placement.Plan;
import io.chiplet.placement.Policy;
import io.chiplet.placement.UsableChiplets;
import io.chiplet.topology.ChipletMemory;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntPredicate;

import static java.util.Objects.requireNonNull;

/**
 * Where each of an executor's task slots runs: one entry per slot, made from a plan (or, under the adaptive policy,
 * from the spread locator). Immutable, so the adaptive controller replaces the whole table at once and a task always
 * sees one consistent table.
 *
 * <p>A slot's CPUs are the plan's pin unit as core decides it ({@link Policy#pinsWholeChiplets()},
 * {@link UsableChiplets#pinUnit}): the whole chiplet under the chiplet policies, the planner's core under {@code wic},
 * the machine- or node-wide sets under {@code wim} and {@code win}.
 */
public record SlotTable(List<Slot> slots)
{
    /**
     * @param chiplet the chiplet holding all of {@code cpus}; empty when they span several
     * @param memoryNode the node to prefer for the task's memory; empty to leave its memory policy alone
     */
    public record Slot(CpuSet cpus, OptionalInt chiplet, OptionalInt memoryNode)
    {
        public Slot
        {
            requireNonNull(cpus, "cpus is null");
            requireNonNull(chiplet, "chiplet is null");
            requireNonNull(memoryNode, "memoryNode is null");
            if (cpus.isEmpty()) {
                throw new IllegalArgumentException("a slot needs at least one CPU");
            }
        }
    }

    public SlotTable
    {
        slots = List.copyOf(slots);
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("a slot table needs at least one slot");
        }
    }

    /** {@link #of(Plan, Topology, boolean, ChipletMemory, IntPredicate)} with each chiplet's memory on its own node. */
    static SlotTable of(Plan plan, Topology topology, boolean bindMemory, IntPredicate usableNode)
    {
        return of(plan, topology, bindMemory, ChipletMemory.of(topology, MemoryKind.DRAM), usableNode);
    }

    /**
     * @param bindMemory whether memory follows the slot at all (the setting, and the plan's policy)
     * @param memory the node each chiplet's memory goes to ({@code spark.chiplet.memory.kind})
     * @param usableNode the nodes a memory policy may name here (live and allowed for this process)
     */
    static SlotTable of(Plan plan, Topology topology, boolean bindMemory, ChipletMemory memory, IntPredicate usableNode)
    {
        requireNonNull(memory, "memory is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(usableNode, "usableNode is null");
        List<Slot> slots = new ArrayList<>(plan.assignments().size());
        boolean bindsMemory = bindMemory && plan.bindsMemory();
        UsableChiplets usable = UsableChiplets.of(topology);
        for (Assignment assignment : plan.assignments()) {
            CpuSet cpus = usable.pinUnit(plan.policy(), assignment);
            int node = assignment.chiplet().isPresent() ? memory.nodeOf(assignment.chiplet().getAsInt(), assignment.numaNode()) : assignment.numaNode();
            slots.add(new Slot(cpus, assignment.chiplet(), memoryNode(bindsMemory, node, usableNode)));
        }
        return new SlotTable(slots);
    }

    static OptionalInt memoryNode(boolean bindMemory, int node, IntPredicate usableNode)
    {
        return bindMemory && node >= 0 && usableNode.test(node) ? OptionalInt.of(node) : OptionalInt.empty();
    }

    public int size()
    {
        return slots.size();
    }

    public Slot slot(int index)
    {
        return slots.get(index);
    }
}
