package io.chiplet.slots;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.placement.HybridRouting;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.StageWorkKinds;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.CpuSet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static java.util.Objects.requireNonNull;

/**
 * The slot pool of one process's worker threads (a Spark executor's task threads; any engine whose threads run one
 * unit of work at a time and come back for the next): core's planner finishes one target per slot once
 * ({@link WorkerPlacements}); each unit of work, at its start, takes a free slot ({@link #acquire}) and its thread is bound
 * to the slot's target (memory preferred on the slot's node), and at its end ({@link #release}) the thread gets back
 * exactly the mask and memory policy it had, since engines reuse their threads. A slot without CPUs to bind
 * ({@code wim}) binds nothing.
 *
 * <p>Which free slot is the policy's {@link Policy.SlotOrder}: under {@code PLAN_ORDER} the first in plan order, so a
 * half-busy process keeps its work together in one L3; under {@code LEAST_BUSY_CHIPLET} the one on the chiplet running
 * the fewest, so concurrent work spreads evenly. Among equally good slots a thread takes the one its previous unit had:
 * it still runs there (restoring its mask did not move it), so pinning it costs no migration and its private caches
 * are warm; otherwise ties are taken in turn.
 *
 * <p>On a hybrid part ({@link #routeByKind}) a unit runs on the performance or the efficiency CPUs of its slot, as
 * core's {@link HybridRouting} routes its group's kind of work (learned from the group's finished units,
 * {@link StageWorkKinds}; a Spark stage) given how many units each class runs.
 *
 * <p>When the process's allowed CPUs change ({@link #allowedCpusChanged}) the slots are planned anew within them and
 * every running unit's thread is moved to its slot's new CPUs. The adaptive loop changes where later units go by
 * publishing a new {@link SlotTable} ({@link #publish}), never touching running ones.
 *
 * <p>Acquire and release are a short critical section over small int arrays plus the bind syscalls.
 */
public final class SlotPool
{
    private static final int IDLE = -1;

    /**
     * A table with each slot's group (its chiplet, or its CPU set when it spans chiplets) and binding target resolved
     * once, and on a hybrid part each slot's target on the CPUs of each core class ({@code null} where the slot has
     * none of that class).
     */
    private record Layout(SlotTable table, int[] groupOfSlot, Optional<HybridRouting> routing, PreparedAffinity[] slotTargets,
            PreparedAffinity[][] classTargets) {}

    /**
     * One unit of work holding a slot, from {@link #acquire} to {@link #release}.
     *
     * @param workGroup the group the unit's work belongs to (a Spark stage), as given to {@link #acquire}
     * @param coreClass the {@link HybridRouting.CoreClass} ordinal the unit was routed to, -1 when not routed
     * @param chiplet the chiplet of the slot, empty when it spans several or binds nothing
     * @param cpus the CPUs the unit's thread was bound to; empty when the slot binds nothing
     * @param binding restores the thread's own mask and memory policy
     */
    public record Lease(int slot, int group, int workGroup, int coreClass, OptionalInt chiplet, Optional<CpuSet> cpus, SlotBinder.Binding binding)
    {
        public Lease
        {
            requireNonNull(chiplet, "chiplet is null");
            requireNonNull(cpus, "cpus is null");
            requireNonNull(binding, "binding is null");
        }
    }

    /** What a unit in a slot that binds nothing holds: nothing to restore. */
    private static final SlotBinder.Binding UNBOUND = new SlotBinder.Binding()
    {
        @Override
        public int tid()
        {
            return 0;
        }

        @Override
        public void restore() {}
    };

    private final SlotBinder binder;
    private final Policy.SlotOrder slotOrder;
    private final Map<Object, Integer> groups = new HashMap<>();
    // Guarded by themselves (busySlot is the lock): the only state acquire and release write together.
    private final int[] busySlot;
    private final int[] busyGroup;
    private final int[] busyClass = new int[HybridRouting.CoreClass.values().length];
    private int cursor;
    private volatile Layout layout;
    // Read by the adaptive loop: the work group each slot runs (IDLE when free) and the thread that last ran it.
    private final AtomicIntegerArray slotWork;
    private final AtomicIntegerArray slotTid;
    // Plans the slots anew within the allowed CPUs; the live pool's plans as at start, a test's keeps its table.
    private volatile Function<CpuSet, SlotTable> replan = allowed -> layout.table;
    // Core's targets the table was made from, rescoped after each cpuset change (the adaptive loop steps from them);
    // empty for a pool built from a bare table.
    private volatile Optional<WorkerPlacements> targets = Optional.empty();
    // Hybrid routing within the allowed CPUs, once routeByKind turned it on.
    private volatile Optional<Function<CpuSet, HybridRouting>> routingFor = Optional.empty();
    // Guarded by busySlot, as the counts it routes with.
    private final StageWorkKinds kinds = new StageWorkKinds();
    // The slot each worker thread last ran in, -1 before its first unit.
    private final ThreadLocal<int[]> lastSlot = ThreadLocal.withInitial(() -> new int[] {-1});

    /**
     * @param slotOrder which free slot a unit takes ({@link Policy#slotOrder()})
     * @param chipletIds the process's chiplets, in the order their groups are counted
     */
    public SlotPool(SlotTable table, Policy.SlotOrder slotOrder, List<Integer> chipletIds, SlotBinder binder)
    {
        requireNonNull(table, "table is null");
        this.slotOrder = requireNonNull(slotOrder, "slotOrder is null");
        this.binder = requireNonNull(binder, "binder is null");
        for (int chiplet : chipletIds) {
            groups.putIfAbsent(chiplet, groups.size());
        }
        for (SlotTable.Slot slot : table.slots()) {
            groups.putIfAbsent(groupKey(slot), groups.size());
        }
        this.busySlot = new int[table.size()];
        this.busyGroup = new int[groups.size()];
        this.slotWork = new AtomicIntegerArray(table.size());
        this.slotTid = new AtomicIntegerArray(table.size());
        for (int slot = 0; slot < table.size(); slot++) {
            slotWork.set(slot, IDLE);
        }
        this.layout = layout(table, Optional.empty());
    }

    /**
     * A pool binding {@code targets}' slots through {@code binder} in the order of their policy, following cpuset
     * changes as core rescopes them.
     */
    public static SlotPool following(WorkerPlacements targets, List<Integer> chipletIds, SlotBinder binder)
    {
        SlotPool pool = new SlotPool(SlotTable.of(targets), targets.policy().slotOrder(), chipletIds, binder);
        pool.follow(targets);
        return pool;
    }

    /**
     * Routes each later unit to its slot's performance or efficiency CPUs by its work group's kind of work.
     *
     * @param routing the routing within the CPUs given to it (the allowed CPUs now, and after each change)
     */
    public void routeByKind(Function<CpuSet, HybridRouting> routing, CpuSet allowed)
    {
        routingFor = Optional.of(requireNonNull(routing, "routing is null"));
        layout = layout(layout.table, Optional.of(routing.apply(allowed)));
    }

    /** Whether units are routed by their kind of work ({@link #routeByKind} on a hybrid part). */
    public boolean routesByKind()
    {
        return layout.routing.isPresent();
    }

    /** What a finished unit read, so later units of its work group are routed by the kind of work it did. */
    public void workRead(Lease lease, long exchangeBytesRead, long sourceBytesRead)
    {
        if (layout.routing.isPresent()) {
            HybridRouting.WorkKind kind = HybridRouting.kindOf(exchangeBytesRead, sourceBytesRead);
            synchronized (busySlot) {
                kinds.finished(lease.workGroup(), kind);
            }
        }
    }

    /** How {@link #allowedCpusChanged} plans the slots anew. */
    public void replanWith(Function<CpuSet, SlotTable> planner)
    {
        replan = requireNonNull(planner, "planner is null");
    }

    /**
     * Follows a cpuset change as core rescopes it: the share {@code start} was planned on, rescoped to the CPUs allowed
     * now ({@link io.chiplet.placement.PlacementDomain#rescopedTo}), and the same policy and slots planned within it
     * ({@link PlacementPlanner#within}). Rescoping from the share at start lets a cpuset that widens again take back
     * what it gave up.
     */
    public void follow(WorkerPlacements start)
    {
        requireNonNull(start, "start is null");
        targets = Optional.of(start);
        replan = allowed -> {
            WorkerPlacements now = PlacementPlanner.within(start, start.share().rescopedTo(allowed));
            targets = Optional.of(now);
            return SlotTable.of(now);
        };
    }

    /** Core's targets the slots follow now; empty for a pool built from a bare table. */
    public Optional<WorkerPlacements> targets()
    {
        return targets;
    }

    /** One line per table for logs: each slot's CPUs, chiplet and memory node. */
    public static String describe(SlotTable table)
    {
        StringBuilder text = new StringBuilder();
        for (int slot = 0; slot < table.size(); slot++) {
            SlotTable.Slot entry = table.slot(slot);
            text.append(slot == 0 ? "" : ", ").append(slot).append(entry.cpus().map(cpus -> ": CPUs " + cpus.toList()).orElse(": not bound"));
            entry.chiplet().ifPresent(chiplet -> text.append(" chiplet ").append(chiplet));
            entry.memoryNode().ifPresent(node -> text.append(" node ").append(node));
        }
        return text.toString();
    }

    /**
     * Takes a slot for a unit of work starting on the calling thread and binds the thread to it. A bind that fails
     * leaves the slot free and throws.
     *
     * @param workGroup the group of the unit's work (a Spark stage id; not negative): hybrid routing learns per group,
     *         and the adaptive loop reads it
     */
    public Lease acquire(int workGroup)
    {
        if (workGroup < 0) {
            throw new IllegalArgumentException("workGroup must not be negative: " + workGroup);
        }
        Layout current = layout;
        int[] last = lastSlot.get();
        int slot;
        int group;
        int coreClass = -1;
        synchronized (busySlot) {
            slot = choose(current.groupOfSlot, last[0]);
            group = current.groupOfSlot[slot];
            busySlot[slot]++;
            busyGroup[group]++;
            if (current.routing.isPresent()) {
                int routed = current.routing.get().route(kinds.of(workGroup), busyClass[0], busyClass[1]).coreClass().ordinal();
                if (current.classTargets[slot][routed] != null) {
                    coreClass = routed;
                    busyClass[coreClass]++;
                }
            }
        }
        PreparedAffinity target = coreClass < 0 ? current.slotTargets[slot] : current.classTargets[slot][coreClass];
        SlotBinder.Binding binding;
        try {
            binding = target == null ? UNBOUND : binder.bind(target);
        }
        catch (RuntimeException | Error e) {
            free(slot, group, coreClass);
            throw e;
        }
        slotWork.set(slot, workGroup);
        slotTid.set(slot, binding.tid());
        last[0] = slot;
        return new Lease(slot, group, workGroup, coreClass, current.table.slot(slot).chiplet(), Optional.ofNullable(target).map(PreparedAffinity::cpus), binding);
    }

    /** Gives the thread of {@code lease} its own mask and memory policy back and frees the slot; on the bound thread. */
    public void release(Lease lease)
    {
        try {
            lease.binding().restore();
        }
        finally {
            free(lease.slot(), lease.group(), lease.coreClass());
        }
    }

    private int choose(int[] groupOfSlot, int previous)
    {
        int slots = busySlot.length;
        boolean balanced = switch (slotOrder) {
            case PLAN_ORDER -> false;
            case LEAST_BUSY_CHIPLET -> true;
        };
        // Scanning from the thread's previous slot makes it win every tie.
        int start = !balanced ? 0 : previous >= 0 && previous < slots ? previous : cursor;
        int best = start;
        for (int k = 1; k < slots; k++) {
            int slot = start + k < slots ? start + k : start + k - slots;
            if (busySlot[slot] < busySlot[best]
                    || (balanced && busySlot[slot] == busySlot[best] && busyGroup[groupOfSlot[slot]] < busyGroup[groupOfSlot[best]])) {
                best = slot;
            }
        }
        if (best != previous) {
            cursor = best + 1 == slots ? 0 : best + 1;
        }
        return best;
    }

    private void free(int slot, int group, int coreClass)
    {
        synchronized (busySlot) {
            busySlot[slot]--;
            busyGroup[group]--;
            if (coreClass >= 0) {
                busyClass[coreClass]--;
            }
            if (busySlot[slot] == 0) {
                slotWork.set(slot, IDLE);
            }
        }
    }

    /**
     * Plans the slots anew within {@code nowAllowed}, for later units, and moves each running unit's thread to its
     * slot's new CPUs. A unit ending meanwhile is harmless: its thread gets its own mask back within the new CPUs.
     *
     * @return how many running threads were moved
     */
    public int allowedCpusChanged(CpuSet nowAllowed)
    {
        // First, so that the new plan's targets are checked against the CPUs allowed now.
        binder.follow(nowAllowed);
        SlotTable table = replan.apply(nowAllowed);
        Optional<HybridRouting> routing = routingFor.map(route -> route.apply(nowAllowed));
        Layout next = layout(checkSize(table), routing.filter(HybridRouting::isHybrid));
        layout = next;
        int moved = 0;
        synchronized (busySlot) {
            for (int slot = 0; slot < busySlot.length; slot++) {
                int tid = slotTid.get(slot);
                if (busySlot[slot] > 0 && tid != 0 && next.slotTargets[slot] != null) {
                    binder.move(tid, next.slotTargets[slot]);
                    moved++;
                }
            }
        }
        return moved;
    }

    /** Where later units go; running ones stay where they are. The table must have one entry per slot. */
    public void publish(SlotTable table)
    {
        layout = layout(checkSize(table), layout.routing);
    }

    private SlotTable checkSize(SlotTable table)
    {
        if (table.size() != busySlot.length) {
            throw new IllegalArgumentException("expected " + busySlot.length + " slots but the table has " + table.size());
        }
        return table;
    }

    /** The table later units are placed by. */
    public SlotTable table()
    {
        return layout.table;
    }

    public int slots()
    {
        return busySlot.length;
    }

    /** The work group of the unit running in {@code slot}, or -1 when the slot is free. */
    public int workIn(int slot)
    {
        return slotWork.get(slot);
    }

    /** The Linux thread id of the thread that last ran in {@code slot}; 0 before any. */
    public int threadIn(int slot)
    {
        return slotTid.get(slot);
    }

    private Layout layout(SlotTable table, Optional<HybridRouting> routing)
    {
        int[] groupOfSlot = new int[table.size()];
        PreparedAffinity[] slotTargets = new PreparedAffinity[table.size()];
        PreparedAffinity[][] classTargets = new PreparedAffinity[table.size()][];
        for (int slot = 0; slot < table.size(); slot++) {
            SlotTable.Slot entry = table.slot(slot);
            // A slot that binds nothing (wim) has no target: its units run where the OS puts them.
            slotTargets[slot] = entry.cpus().map(cpus -> binder.prepare(cpus, entry.memoryNode())).orElse(null);
            Integer group = groups.get(groupKey(table.slot(slot)));
            if (group == null) {
                throw new IllegalArgumentException("slot " + slot + " is on chiplet " + table.slot(slot).chiplet() + ", not one of this process's");
            }
            groupOfSlot[slot] = group;
            classTargets[slot] = new PreparedAffinity[HybridRouting.CoreClass.values().length];
            for (HybridRouting.CoreClass coreClass : HybridRouting.CoreClass.values()) {
                CpuSet cpus = entry.cpus().flatMap(own -> routing.map(route -> route.cpus(coreClass).intersect(own))).orElse(CpuSet.empty());
                classTargets[slot][coreClass.ordinal()] = cpus.isEmpty() ? null : binder.prepare(cpus, entry.memoryNode());
            }
        }
        return new Layout(table, groupOfSlot, routing, slotTargets, classTargets);
    }

    private static Object groupKey(SlotTable.Slot slot)
    {
        return slot.chiplet().isPresent() ? (Object) slot.chiplet().getAsInt() : slot.cpus();
    }
}
