package io.chiplet.spark.placement;

import io.chiplet.adaptive.AdaptiveSpread;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.ThreadSignals;
import io.chiplet.placement.SpreadLocator;
import io.chiplet.placement.UsableChiplets;
import io.chiplet.spark.settings.ChipletSettings;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.topology.ChipletMemory;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.policy=adaptive}: CHARM's spread control for one executor's task slots. Every
 * {@code spark.chiplet.adaptive.intervalMs} it samples each task thread's remote-access signal (hardware fill
 * counters where the machine has them, the software fallback where it does not) and steps core's
 * {@link AdaptiveSpread} loop, one worker per slot, against {@code spark.chiplet.adaptive.remoteAccessThreshold}; asks the driver for its skew hints (a stage
 * the driver names takes the hinted spread instead: heavy partitions wider, light ones 1), and lets a
 * {@link SpreadLocator} turn the spreads into chiplets. The result is published to the placement: tasks started after it
 * run there, running ones stay put.
 *
 * <p>One daemon thread per executor; everything but {@link #close} runs on it. When a thread's signal cannot be opened
 * it warns once (that slot then follows the driver's hints alone); when an interval fails it warns once and stops,
 * leaving the last table in force.
 */
final class AdaptiveController
        implements AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(AdaptiveController.class);

    private final BoundTaskPlacement placement;
    private final SpreadLocator locator;
    private final AdaptiveSpread spread;
    private final Supplier<SpreadHints> driver;
    private final PlacementMetrics metrics;
    private final boolean bindMemory;
    private final ChipletMemory memory;
    private final IntPredicate usableNode;
    private final int[] spreads;
    private final int[] cpus;
    private final int[] chiplets;
    // Each chiplet's allowed CPUs, by the locator's index: a slot is pinned to its whole chiplet.
    private final CpuSet[] chipletCpus;
    private boolean signalWarned;
    private boolean driverWarned;
    private SpreadHints hints = SpreadHints.NONE;
    private volatile Thread thread;

    /**
     * @param spread the loop, at the configured interval and threshold, with the signal opener (closed with this)
     */
    AdaptiveController(BoundTaskPlacement placement, Topology topology, AdaptiveSpread spread, Supplier<SpreadHints> driver,
            PlacementMetrics metrics, boolean bindMemory, ChipletMemory memory, IntPredicate usableNode)
    {
        this.locator = SpreadLocator.of(topology, topology.allowed());
        this.chipletCpus = new CpuSet[locator.chiplets()];
        UsableChiplets usable = UsableChiplets.of(topology);
        for (int index = 0; index < chipletCpus.length; index++) {
            chipletCpus[index] = usable.cpusOf(locator.chipletId(index));
        }
        this.placement = requireNonNull(placement, "placement is null");
        this.spread = requireNonNull(spread, "spread is null");
        this.driver = requireNonNull(driver, "driver is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.bindMemory = bindMemory;
        this.memory = requireNonNull(memory, "memory is null");
        this.usableNode = requireNonNull(usableNode, "usableNode is null");
        int slots = placement.slots();
        this.spreads = new int[slots];
        this.cpus = new int[slots];
        this.chiplets = new int[slots];
    }

    /** The loop at the configured interval and threshold, opening each task thread's signal with {@code opener}. */
    static AdaptiveSpread loop(ChipletSettings settings, AdaptiveSpread.SignalOpener opener)
    {
        return new AdaptiveSpread(settings.adaptiveIntervalMs() * 1_000_000L, settings.remoteAccessThreshold(), opener);
    }

    static AdaptiveController start(BoundTaskPlacement placement, Topology topology, PlacementContext context, boolean bindMemory, ChipletMemory memory,
            IntPredicate usableNode)
    {
        ThreadSignals signals = ThreadSignals.live();
        AdaptiveSpread.SignalOpener opener = tid -> {
            RemoteAccessRate.Choice choice = signals.open(tid);
            if (!choice.hardware().isAvailable()) {
                log.debug("Chiplet adaptive policy on the software fallback for thread {}: {}", tid, choice.hardware());
            }
            return choice.signal();
        };
        AdaptiveController controller = new AdaptiveController(placement, topology, loop(context.settings(), opener),
                context.driverHints(), context.metrics(), bindMemory, memory, usableNode);
        Thread thread = new Thread(() -> controller.loop(context.settings().adaptiveIntervalMs()), "chiplet-adaptive-executor-" + context.executorId());
        thread.setDaemon(true);
        controller.thread = thread;
        thread.start();
        log.info("Chiplet adaptive policy on executor {}: every {} ms, widen above {} remote accesses per interval, over up to {} chiplets",
                context.executorId(), context.settings().adaptiveIntervalMs(), context.settings().remoteAccessThreshold(), controller.locator.chiplets());
        return controller;
    }

    private void loop(long intervalMs)
    {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(intervalMs);
                interval();
            }
        }
        catch (InterruptedException e) {
            // close(): stop
        }
        catch (RuntimeException e) {
            log.warn("Chiplet adaptive policy stopped, later tasks keep their last placement: {}", e.toString());
            log.debug("Chiplet adaptive policy failure", e);
        }
        finally {
            spread.close();
        }
    }

    /** One controller period: measure, ask the driver, place. Package-private for tests, which drive it by hand. */
    void interval()
    {
        int slots = placement.slots();
        List<AdaptiveSpread.Worker> workers = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            // An idle slot's thread is listed too, so its next sample covers only its next task's time.
            workers.add(new AdaptiveSpread.Worker(slot, Math.max(0, placement.threadIn(slot)), placement.stageIn(slot) >= 0));
        }
        AdaptiveSpread.Step step = spread.step(workers, locator.chiplets());
        if (!step.openFailures().isEmpty() && !signalWarned) {
            signalWarned = true;
            log.warn("Chiplet adaptive policy cannot read a remote-access signal, its slot follows the driver's skew hints only: {}", step.openFailures().get(0));
        }
        step.workers().stream().flatMap(worker -> worker.source().stream()).findFirst().ifPresent(metrics::signalSource);
        hints = askDriver();
        int widest = 1;
        for (int slot = 0; slot < slots; slot++) {
            int stage = placement.stageIn(slot);
            int own = step.workers().get(slot).spread();
            spreads[slot] = stage >= 0 ? hints.chipletsFor(stage, own) : own;
            widest = Math.max(widest, Math.min(spreads[slot], locator.chiplets()));
        }
        locator.locate(spreads, slots, cpus, chiplets);
        List<SlotTable.Slot> entries = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            // The locator's CPU only books the slot's share of its chiplet; the slot runs on the whole chiplet.
            entries.add(new SlotTable.Slot(chipletCpus[chiplets[slot]], OptionalInt.of(locator.chipletId(chiplets[slot])),
                    SlotTable.memoryNode(bindMemory, memory.nodeOf(locator.chipletId(chiplets[slot]), locator.numaNodeOfChiplet(chiplets[slot])), usableNode)));
        }
        SlotTable table = new SlotTable(entries);
        if (!table.equals(placement.table())) {
            placement.publish(table);
            log.debug("Chiplet adaptive policy moved later tasks: spreads {}, slots {}", spreads, BoundTaskPlacement.describe(table));
        }
        metrics.spread(widest);
        step.meanRate().ifPresent(metrics::remoteAccessRate);
    }

    private SpreadHints askDriver()
    {
        try {
            SpreadHints reply = driver.get();
            driverWarned = false;
            return reply;
        }
        catch (RuntimeException e) {
            if (!driverWarned) {
                driverWarned = true;
                log.info("Chiplet adaptive policy got no spread hints from the driver, keeps the last ones: {}", e.toString());
            }
            return hints;
        }
    }

    /** The spread the controller holds for {@code slot}, hints aside. */
    int controllerSpread(int slot)
    {
        return spread.spread(slot);
    }

    @Override
    public void close()
    {
        Thread running = thread;
        if (running == null) {
            spread.close();
            return;
        }
        running.interrupt();
        try {
            running.join(5_000);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
