package io.chiplet.slots;

import io.chiplet.placement.WorkerPlacement;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.CpuSet;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Where each of a process's worker slots runs (a Spark executor's task slots): one entry per slot, each core's finished {@link WorkerPlacement} for that
 * worker as it is (core applied the pin unit, {@code wim}'s "no binding" and the memory rule). Immutable, so the
 * adaptive loop replaces the whole table at once and a task always sees one consistent table.
 */
public record SlotTable(List<Slot> slots)
{
    /**
     * @param cpus the CPUs to bind the task's thread to; empty: the slot binds nothing ({@code wim})
     * @param chiplet the chiplet holding all of {@code cpus}; empty when they span several or nothing is bound
     * @param memoryNode the node to prefer for the task's memory; empty to leave its memory policy alone
     */
    public record Slot(Optional<CpuSet> cpus, OptionalInt chiplet, OptionalInt memoryNode)
    {
        public Slot
        {
            requireNonNull(cpus, "cpus is null");
            requireNonNull(chiplet, "chiplet is null");
            requireNonNull(memoryNode, "memoryNode is null");
            if (cpus.isPresent() && cpus.get().isEmpty()) {
                throw new IllegalArgumentException("a bound slot needs at least one CPU");
            }
        }

        /** The slot of {@code target}, unchanged. */
        public static Slot of(WorkerPlacement target)
        {
            return new Slot(target.cpusToBind(), target.chiplet(), target.memoryNodeToBind());
        }

        /** Whether a task in this slot is bound at all. */
        public boolean binds()
        {
            return cpus.isPresent();
        }
    }

    public SlotTable
    {
        slots = List.copyOf(slots);
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("a slot table needs at least one slot");
        }
    }

    /** One slot per worker of {@code targets}, in worker order. */
    public static SlotTable of(WorkerPlacements targets)
    {
        requireNonNull(targets, "targets is null");
        return new SlotTable(targets.targets().stream().map(Slot::of).toList());
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
