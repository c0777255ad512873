package io.chiplet.spark.placement;

import io.chiplet.placement.Assignment;
import io.chiplet.placement.Plan;
import io.chiplet.placement.Policy;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
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
 * <p>Under the chiplet policies ({@code wicp-local}, {@code wicp-mixed}, {@code adaptive}) a slot's CPUs are its
 * whole chiplet (the allowed CPUs of it), not the core the planner picked: the plan decides how many slots each
 * chiplet gets, and within one L3 the kernel may balance task threads over the cores freely, which costs no locality
 * and keeps a task off a core that something else on the host keeps busy. {@code wic} means one core per worker and
 * keeps the planner's core; {@code wim} and {@code win} keep their machine-wide or node-wide sets.
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

    /**
     * @param bindMemory whether memory follows the slot at all (the setting, and the plan's policy)
     * @param usableNode the nodes a memory policy may name here (live and allowed for this process)
     */
    static SlotTable of(Plan plan, Topology topology, boolean bindMemory, IntPredicate usableNode)
    {
        requireNonNull(plan, "plan is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(usableNode, "usableNode is null");
        List<Slot> slots = new ArrayList<>(plan.assignments().size());
        boolean memory = bindMemory && plan.bindsMemory();
        boolean wholeChiplets = pinsWholeChiplets(plan.policy());
        for (Assignment assignment : plan.assignments()) {
            CpuSet cpus = wholeChiplets && assignment.chiplet().isPresent()
                    ? chipletCpus(topology, assignment.chiplet().getAsInt())
                    : assignment.cpus();
            slots.add(new Slot(cpus, assignment.chiplet(), memoryNode(memory, assignment.numaNode(), usableNode)));
        }
        return new SlotTable(slots);
    }

    static boolean pinsWholeChiplets(Policy applied)
    {
        return applied == Policy.WICP_LOCAL || applied == Policy.WICP_MIXED || applied == Policy.ADAPTIVE;
    }

    /** The CPUs of chiplet {@code id} this process may use. */
    static CpuSet chipletCpus(Topology topology, int id)
    {
        Chiplet chiplet = topology.chiplet(id).orElseThrow(() -> new IllegalArgumentException("no chiplet " + id + " in " + topology.source()));
        return chiplet.cpus().intersect(topology.allowed());
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
