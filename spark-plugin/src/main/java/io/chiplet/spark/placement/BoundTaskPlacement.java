package io.chiplet.spark.placement;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.placement.HybridRouting;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.NodeShare;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.StageWorkKinds;
import io.chiplet.placement.WorkerTargets;
import io.chiplet.spark.settings.ChipletSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.mode=task}: core's planner finishes one target per task slot once ({@link WorkerTargets});
 * each task, at its start, takes a free slot and its thread is bound to the slot's target (memory preferred on the
 * slot's node), and at its end the thread gets back exactly the mask and memory policy it had, since Spark reuses task
 * threads. A slot without CPUs to bind ({@code wim}) binds nothing.
 *
 * <p>Which free slot: under policies that fill chiplets in order ({@code wicp-local}, {@code wic}) the first in plan
 * order, so a half-busy executor keeps its tasks together in one L3; under the others the one on the chiplet running
 * the fewest tasks, so concurrent tasks spread evenly. Among equally good slots a thread takes the one its previous
 * task had: it still runs there (restoring its mask did not move it), so pinning it costs no migration and its
 * private caches are warm; otherwise ties are taken in turn.
 *
 * <p>On a hybrid part ({@link #routeByKind}) a task runs on the performance or the efficiency CPUs of its slot, as
 * core's {@link HybridRouting} routes its stage's kind of work (learned from the stage's finished tasks,
 * {@link StageWorkKinds}) given how many tasks each class runs: the hybrid report's push strategy, whose unit of
 * scheduling is the task, as Spark's is.
 *
 * <p>The hook is a short critical section over small int arrays plus the bind syscalls; the adaptive controller
 * changes where later tasks go by publishing a new {@link SlotTable}, never touching running tasks.
 */
public final class BoundTaskPlacement
        implements TaskPlacement
{
    private static final Logger log = LoggerFactory.getLogger(BoundTaskPlacement.class);
    private static final int IDLE = -1;

    /**
     * A table with each slot's group (its chiplet, or its CPU set when it spans chiplets) and binding target resolved
     * once, and on a hybrid part each slot's target on the CPUs of each core class ({@code null} where the slot has
     * none of that class).
     */
    private record Layout(SlotTable table, int[] groupOfSlot, Optional<HybridRouting> routing, PreparedAffinity[] slotTargets,
            PreparedAffinity[][] classTargets) {}

    /**
     * @param stage the task's stage
     * @param coreClass the {@link HybridRouting.CoreClass} ordinal the task was routed to, -1 when not routed
     * @param slotCpus the CPUs the task's thread was bound to; empty when the slot binds nothing
     */
    record Placed(int slot, int group, int stage, int coreClass, OptionalInt chiplet, Optional<CpuSet> slotCpus, TaskThreadBinder.Binding binding)
            implements Handle
    {
        @Override
        public Optional<CpuSet> cpus()
        {
            return slotCpus;
        }
    }

    /** What a task in a slot that binds nothing holds: nothing to restore. */
    private static final TaskThreadBinder.Binding UNBOUND = new TaskThreadBinder.Binding()
    {
        @Override
        public int tid()
        {
            return 0;
        }

        @Override
        public void restore() {}
    };

    private final TaskThreadBinder binder;
    private final Policy.SlotOrder slotOrder;
    private final Map<Object, Integer> groups = new HashMap<>();
    // Guarded by themselves (busySlot is the lock): the only state the hooks write together.
    private final int[] busySlot;
    private final int[] busyGroup;
    private final int[] busyClass = new int[HybridRouting.CoreClass.values().length];
    private int cursor;
    private volatile Layout layout;
    // Read by the adaptive controller: the stage each slot runs (IDLE when free) and the thread that last ran it.
    private final AtomicIntegerArray slotStage;
    private final AtomicIntegerArray slotTid;
    private volatile AutoCloseable controller = () -> {};
    // Plans the slots anew within the allowed CPUs; the live placement's plans as at start, a test's keeps its table.
    private volatile Function<CpuSet, SlotTable> replan = allowed -> layout.table;
    // Core's targets the table was made from, rescoped after each cpuset change (the adaptive loop steps from them);
    // empty for a placement built from a bare table.
    private volatile Optional<WorkerTargets> targets = Optional.empty();
    // Hybrid routing within the allowed CPUs, once routeByKind turned it on.
    private volatile Optional<Function<CpuSet, HybridRouting>> routingFor = Optional.empty();
    // Guarded by busySlot, as the counts it routes with.
    private final StageWorkKinds kinds = new StageWorkKinds();
    // The slot each task thread last ran in, -1 before its first task.
    private final ThreadLocal<int[]> lastSlot = ThreadLocal.withInitial(() -> new int[] {-1});

    BoundTaskPlacement(SlotTable table, Policy.SlotOrder slotOrder, List<Integer> chipletIds, TaskThreadBinder binder)
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
        this.slotStage = new AtomicIntegerArray(table.size());
        this.slotTid = new AtomicIntegerArray(table.size());
        for (int slot = 0; slot < table.size(); slot++) {
            slotStage.set(slot, IDLE);
        }
        this.layout = layout(table, Optional.empty());
    }

    /** The live placement for one executor: core's targets for its slots, bound through the configured backend. */
    static TaskPlacement live(PlacementContext context)
    {
        ChipletSettings settings = context.settings();
        Topology topology = context.topology();
        WorkerTargets targets = targets(topology, settings, context.taskSlots());
        BoundTaskPlacement placement = following(targets, topology.chiplets().stream().map(Chiplet::id).toList(),
                new LiveTaskThreadBinder(ThreadBinder.live(settings.pinningBackend().configName())));
        SlotTable table = placement.table();
        MemoryBinding memory = targets.memory();
        log.info("Chiplet task placement on executor {}: {} task slots, policy {} ({}); memory {}; slots {}",
                context.executorId(), context.taskSlots(), targets.policy(), targets.plan().reason(),
                targets.memoryDescription(),
                describe(table));
        memory.shortfall().ifPresent(problem -> log.warn("Chiplet task placement on executor {}: {}={}: {}", context.executorId(),
                ChipletSettings.MEMORY_KIND, memory.kind().jsonName(), problem));
        if (HybridRouting.of(topology, topology.allowed()).isHybrid()) {
            placement.routeByKind(allowed -> HybridRouting.of(topology, allowed), topology.allowed());
            log.info("Chiplet task placement on executor {}: hybrid part, tasks of stages that read shuffles or compute run on performance cores, scans on efficiency cores, each on the other kind when its own is full",
                    context.executorId());
        }
        if (targets.policy().adaptsAtRunTime()) {
            placement.controller = AdaptiveController.start(placement, context);
        }
        return placement;
    }

    /** A placement binding {@code targets}' slots through {@code binder}, following cpuset changes as core rescopes them. */
    static BoundTaskPlacement following(WorkerTargets targets, List<Integer> chipletIds, TaskThreadBinder binder)
    {
        BoundTaskPlacement placement = new BoundTaskPlacement(SlotTable.of(targets), targets.policy().slotOrder(), chipletIds, binder);
        placement.follow(targets);
        return placement;
    }

    /**
     * Core's targets for {@code taskSlots} slots of an executor on {@code topology}: what {@link #live} binds, and what
     * {@code chiplet plan} prints for the same machine, policy, worker count and memory settings. Memory goes only to
     * the nodes {@code topology} allows this process ({@link Topology#allowedMemoryNodes()}).
     */
    public static WorkerTargets targets(Topology topology, ChipletSettings settings, int taskSlots)
    {
        MemoryBinding memory = MemoryBinding.of(topology, settings.bindMemory(), settings.memoryKind());
        return PlacementPlanner.targets(NodeShare.of(topology), settings.policy(), taskSlots, memory);
    }

    /**
     * The slot table {@link #live} starts an executor with, for any topology: {@code chiplet demo} shows the bundled
     * machines' slots with it.
     */
    public static SlotTable slotTable(Topology topology, ChipletSettings settings, int taskSlots)
    {
        return SlotTable.of(targets(topology, settings, taskSlots));
    }

    /**
     * Routes each later task to its slot's performance or efficiency CPUs by its stage's kind of work.
     *
     * @param routing the routing within the CPUs given to it (the allowed CPUs now, and after each change)
     */
    void routeByKind(Function<CpuSet, HybridRouting> routing, CpuSet allowed)
    {
        routingFor = Optional.of(requireNonNull(routing, "routing is null"));
        layout = layout(layout.table, Optional.of(routing.apply(allowed)));
    }

    /** What a finished task read, so later tasks of its stage are routed by the kind of work it did. */
    @Override
    public void taskRead(Handle handle, long exchangeBytesRead, long sourceBytesRead)
    {
        if (layout.routing.isPresent()) {
            HybridRouting.WorkKind kind = HybridRouting.kindOf(exchangeBytesRead, sourceBytesRead);
            synchronized (busySlot) {
                kinds.finished(((Placed) handle).stage(), kind);
            }
        }
    }

    /** How {@link #allowedCpusChanged} plans the slots anew. */
    void replanWith(Function<CpuSet, SlotTable> planner)
    {
        replan = requireNonNull(planner, "planner is null");
    }

    /**
     * Follows a cpuset change as core rescopes it: the share {@code start} was planned on, rescoped to the CPUs allowed
     * now ({@link io.chiplet.placement.NodeShare#rescopedTo}), and the same policy and slots planned within it
     * ({@link WorkerTargets#within}). Rescoping from the share at start lets a cpuset that widens again take back what
     * it gave up.
     */
    void follow(WorkerTargets start)
    {
        requireNonNull(start, "start is null");
        targets = Optional.of(start);
        replan = allowed -> {
            WorkerTargets now = PlacementPlanner.within(start, start.share().rescopedTo(allowed));
            targets = Optional.of(now);
            return SlotTable.of(now);
        };
    }

    /** Core's targets the slots follow now; empty for a placement built from a bare table. */
    Optional<WorkerTargets> targets()
    {
        return targets;
    }

    static String describe(SlotTable table)
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

    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
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
                int routed = current.routing.get().route(kinds.of(task.stageId()), busyClass[0], busyClass[1]).coreClass().ordinal();
                if (current.classTargets[slot][routed] != null) {
                    coreClass = routed;
                    busyClass[coreClass]++;
                }
            }
        }
        PreparedAffinity target = coreClass < 0 ? current.slotTargets[slot] : current.classTargets[slot][coreClass];
        TaskThreadBinder.Binding binding;
        try {
            binding = target == null ? UNBOUND : binder.bind(target);
        }
        catch (RuntimeException | Error e) {
            release(slot, group, coreClass);
            throw e;
        }
        slotStage.set(slot, task.stageId());
        slotTid.set(slot, binding.tid());
        last[0] = slot;
        return new Placed(slot, group, task.stageId(), coreClass, current.table.slot(slot).chiplet(), Optional.ofNullable(target).map(PreparedAffinity::cpus), binding);
    }

    @Override
    public void onTaskEnd(Handle handle)
    {
        Placed placed = (Placed) handle;
        try {
            placed.binding().restore();
        }
        finally {
            release(placed.slot(), placed.group(), placed.coreClass());
        }
    }

    private int choose(int[] groupOfSlot, int previous)
    {
        int slots = busySlot.length;
        boolean balanced = slotOrder == Policy.SlotOrder.LEAST_BUSY_CHIPLET;
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

    private void release(int slot, int group, int coreClass)
    {
        synchronized (busySlot) {
            busySlot[slot]--;
            busyGroup[group]--;
            if (coreClass >= 0) {
                busyClass[coreClass]--;
            }
            if (busySlot[slot] == 0) {
                slotStage.set(slot, IDLE);
            }
        }
    }

    /**
     * Plans the slots anew within {@code nowAllowed}, for later tasks, and moves each running task's thread to its
     * slot's new CPUs. A task ending meanwhile is harmless: its thread gets its own mask back within the new CPUs.
     */
    @Override
    public void allowedCpusChanged(CpuSet nowAllowed)
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
        log.info("Chiplet task placement: slots now {}; {} running task threads moved", describe(table), moved);
    }

    /** Where later tasks go; running tasks stay where they are. The table must have one entry per slot. */
    void publish(SlotTable table)
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

    SlotTable table()
    {
        return layout.table;
    }

    int slots()
    {
        return busySlot.length;
    }

    /** The stage of the task running in {@code slot}, or -1 when the slot is free. */
    int stageIn(int slot)
    {
        return slotStage.get(slot);
    }

    /** The Linux thread id of the task thread that last ran in {@code slot}; 0 before any. */
    int threadIn(int slot)
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
            // A slot that binds nothing (wim) has no target: its tasks run where the OS puts them.
            slotTargets[slot] = entry.cpus().map(cpus -> binder.target(cpus, entry.memoryNode())).orElse(null);
            Integer group = groups.get(groupKey(table.slot(slot)));
            if (group == null) {
                throw new IllegalArgumentException("slot " + slot + " is on chiplet " + table.slot(slot).chiplet() + ", not one of this executor's");
            }
            groupOfSlot[slot] = group;
            classTargets[slot] = new PreparedAffinity[HybridRouting.CoreClass.values().length];
            for (HybridRouting.CoreClass coreClass : HybridRouting.CoreClass.values()) {
                CpuSet cpus = entry.cpus().flatMap(own -> routing.map(route -> route.cpus(coreClass).intersect(own))).orElse(CpuSet.empty());
                classTargets[slot][coreClass.ordinal()] = cpus.isEmpty() ? null : binder.target(cpus, entry.memoryNode());
            }
        }
        return new Layout(table, groupOfSlot, routing, slotTargets, classTargets);
    }

    private static Object groupKey(SlotTable.Slot slot)
    {
        return slot.chiplet().isPresent() ? (Object) slot.chiplet().getAsInt() : slot.cpus();
    }

    @Override
    public void close()
    {
        try {
            controller.close();
        }
        catch (Exception e) {
            log.warn("Chiplet adaptive controller did not stop cleanly: {}", e.toString());
        }
    }
}
