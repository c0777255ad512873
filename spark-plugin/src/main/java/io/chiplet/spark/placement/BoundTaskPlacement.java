package io.chiplet.spark.placement;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.placement.HybridRouting;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.slots.LiveSlotBinder;
import io.chiplet.slots.SlotBinder;
import io.chiplet.slots.SlotPool;
import io.chiplet.slots.SlotTable;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.mode=task}: an executor's task slots as core's {@link SlotPool}. A task's start takes a slot
 * ({@link SlotPool#acquire}, its stage as the work group) and binds its thread, its end gives the thread back exactly
 * the mask and memory policy it had ({@link SlotPool#release}), since Spark reuses task threads; which slot, hybrid
 * routing by the stage's kind of work and following cpuset changes are the pool's. This class only translates Spark's
 * task events, logs, and starts the adaptive controller under {@code adaptive}.
 */
public final class BoundTaskPlacement
        implements TaskPlacement
{
    private static final Logger log = LoggerFactory.getLogger(BoundTaskPlacement.class);

    /** A task holding a slot of the pool. */
    record Placed(SlotPool.Lease lease)
            implements Handle
    {
        Placed
        {
            requireNonNull(lease, "lease is null");
        }

        int slot()
        {
            return lease.slot();
        }

        SlotBinder.Binding binding()
        {
            return lease.binding();
        }

        @Override
        public OptionalInt chiplet()
        {
            return lease.chiplet();
        }

        @Override
        public Optional<CpuSet> cpus()
        {
            return lease.cpus();
        }
    }

    private final SlotPool pool;
    private volatile AutoCloseable controller = () -> {};

    BoundTaskPlacement(SlotPool pool)
    {
        this.pool = requireNonNull(pool, "pool is null");
    }

    /** The live placement for one executor: core's targets for its slots, bound through the configured backend. */
    static TaskPlacement live(PlacementContext context)
    {
        PlacementSettings settings = context.settings();
        Topology topology = context.topology();
        WorkerPlacements targets = targets(topology, settings, context.taskSlots());
        BoundTaskPlacement placement = following(targets, topology.chiplets().stream().map(Chiplet::id).toList(),
                new LiveSlotBinder(ThreadBinder.live(settings.pinningBackend().configName())));
        SlotTable table = placement.table();
        MemoryBinding memory = targets.memory();
        log.info("Chiplet task placement on executor {}: {} task slots, policy {} ({}); memory {}; slots {}",
                context.executorId(), context.taskSlots(), targets.policy(), targets.plan().reason(),
                targets.memoryDescription(),
                SlotPool.describe(table));
        memory.shortfall().ifPresent(problem -> log.warn("Chiplet task placement on executor {}: {}={}: {}", context.executorId(),
                SparkSettings.MEMORY_KIND, memory.kind().jsonName(), problem));
        if (HybridRouting.of(topology, topology.allowed()).isHybrid()) {
            placement.pool.routeByKind(allowed -> HybridRouting.of(topology, allowed), topology.allowed());
            log.info("Chiplet task placement on executor {}: hybrid part, tasks of stages that read shuffles or compute run on performance cores, scans on efficiency cores, each on the other kind when its own is full",
                    context.executorId());
        }
        if (targets.policy().adaptsAtRunTime()) {
            placement.controller = AdaptiveController.start(placement.pool, context);
        }
        return placement;
    }

    /** A placement binding {@code targets}' slots through {@code binder}, following cpuset changes as core rescopes them. */
    static BoundTaskPlacement following(WorkerPlacements targets, List<Integer> chipletIds, SlotBinder binder)
    {
        return new BoundTaskPlacement(SlotPool.following(targets, chipletIds, binder));
    }

    /**
     * Core's targets for {@code taskSlots} slots of an executor on {@code topology}: what {@link #live} binds, and what
     * {@code chiplet plan} prints for the same machine, policy, worker count and memory settings. Memory goes only to
     * the nodes {@code topology} allows this process ({@link Topology#allowedMemoryNodes()}).
     */
    public static WorkerPlacements targets(Topology topology, PlacementSettings settings, int taskSlots)
    {
        MemoryBinding memory = MemoryBinding.of(topology, settings.memoryBind(), settings.memoryKind());
        return PlacementPlanner.targets(PlacementDomain.of(topology), settings.policy(), taskSlots, memory);
    }

    /**
     * The slot table {@link #live} starts an executor with, for any topology: {@code chiplet demo} shows the bundled
     * machines' slots with it.
     */
    public static SlotTable slotTable(Topology topology, PlacementSettings settings, int taskSlots)
    {
        return SlotTable.of(targets(topology, settings, taskSlots));
    }

    /** The executor's slot pool (the adaptive controller and tests drive it). */
    SlotPool pool()
    {
        return pool;
    }

    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
        return new Placed(pool.acquire(task.stageId()));
    }

    @Override
    public void onTaskEnd(Handle handle)
    {
        pool.release(((Placed) handle).lease());
    }

    /** What a finished task read, so later tasks of its stage are routed by the kind of work it did. */
    @Override
    public void taskRead(Handle handle, long exchangeBytesRead, long sourceBytesRead)
    {
        pool.workRead(((Placed) handle).lease(), exchangeBytesRead, sourceBytesRead);
    }

    /**
     * Plans the slots anew within {@code nowAllowed}, for later tasks, and moves each running task's thread to its
     * slot's new CPUs ({@link SlotPool#allowedCpusChanged}).
     */
    @Override
    public void allowedCpusChanged(CpuSet nowAllowed)
    {
        int moved = pool.allowedCpusChanged(nowAllowed);
        log.info("Chiplet task placement: slots now {}; {} running task threads moved", SlotPool.describe(pool.table()), moved);
    }

    /** Where later tasks go; running tasks stay where they are. The table must have one entry per slot. */
    void publish(SlotTable table)
    {
        pool.publish(table);
    }

    SlotTable table()
    {
        return pool.table();
    }

    /** Core's targets the slots follow now; empty for a placement built from a bare table. */
    Optional<WorkerPlacements> targets()
    {
        return pool.targets();
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
