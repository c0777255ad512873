package io.chiplet.spark.placement;

import io.chiplet.perf.CounterTarget;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.PerfPlatform;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.placement.SpreadController;
import io.chiplet.placement.SpreadLocator;
import io.chiplet.spark.settings.ChipletSettings;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.topology.ChipletMemory;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.policy=adaptive}: CHARM's spread control for one executor's task slots. Every
 * {@code spark.chiplet.adaptive.intervalMs} it samples each task thread's remote-access signal (hardware fill
 * counters where the machine has them, the software fallback where it does not), steps a {@link SpreadController}
 * per slot against {@code spark.chiplet.adaptive.remoteAccessThreshold}, asks the driver for its skew hints (a stage
 * the driver names takes the hinted spread instead: heavy partitions wider, light ones 1), and lets a
 * {@link SpreadLocator} turn the spreads into chiplets. The result is published to the placement: tasks started after it
 * run there, running ones stay put.
 *
 * <p>One daemon thread per executor; everything but {@link #close} runs on it. When no signal can be opened it warns
 * once and goes on with the driver's hints alone; when an interval fails it warns once and stops, leaving the last
 * table in force.
 */
final class AdaptiveController
        implements AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(AdaptiveController.class);

    /** Opens the remote-access signal of one task thread. */
    @FunctionalInterface
    interface SignalOpener
    {
        RemoteAccessSignal open(int tid);
    }

    private final PinnedTaskPlacement placement;
    private final SpreadLocator locator;
    private final SpreadController controller;
    private final SignalOpener opener;
    private final Supplier<SpreadHints> driver;
    private final PlacementMetrics metrics;
    private final boolean bindMemory;
    private final ChipletMemory memory;
    private final IntPredicate usableNode;
    private final long intervalNanos;
    private final int[] spreads;
    private final int[] cpus;
    private final int[] chiplets;
    // Each chiplet's allowed CPUs, by the locator's index: a slot is pinned to its whole chiplet.
    private final CpuSet[] chipletCpus;
    private final Map<Integer, RemoteAccessSignal> signals = new HashMap<>();
    private boolean measuring = true;
    private boolean driverWarned;
    private SpreadHints hints = SpreadHints.NONE;
    private volatile Thread thread;

    AdaptiveController(PinnedTaskPlacement placement, Topology topology, SpreadController.Settings settings, SignalOpener opener,
            Supplier<SpreadHints> driver, PlacementMetrics metrics, boolean bindMemory, ChipletMemory memory, IntPredicate usableNode)
    {
        this.locator = SpreadLocator.of(topology, topology.allowed());
        this.chipletCpus = new CpuSet[locator.chiplets()];
        for (int index = 0; index < chipletCpus.length; index++) {
            chipletCpus[index] = SlotTable.chipletCpus(topology, locator.chipletId(index));
        }
        this.placement = requireNonNull(placement, "placement is null");
        this.opener = requireNonNull(opener, "opener is null");
        this.driver = requireNonNull(driver, "driver is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.bindMemory = bindMemory;
        this.memory = requireNonNull(memory, "memory is null");
        this.usableNode = requireNonNull(usableNode, "usableNode is null");
        this.intervalNanos = settings.intervalNanos();
        int slots = placement.slots();
        this.controller = new SpreadController(slots, locator.chiplets(), settings);
        this.spreads = new int[slots];
        this.cpus = new int[slots];
        this.chiplets = new int[slots];
    }

    /** CHARM's band, confirmation and move budget ({@link SpreadController.Settings#defaults}) at the configured interval and threshold. */
    static SpreadController.Settings settings(ChipletSettings settings, int slots)
    {
        SpreadController.Settings charm = SpreadController.Settings.defaults(slots);
        // A threshold of 0 means "spread on any remote access": the controller needs a positive one, the smallest does that.
        double threshold = Math.max(settings.remoteAccessThreshold(), Double.MIN_VALUE);
        return new SpreadController.Settings(settings.adaptiveIntervalMs() * 1_000_000L, threshold, charm.hysteresis(), charm.confirmIntervals(), charm.maxMovesPerInterval());
    }

    static AdaptiveController start(PinnedTaskPlacement placement, Topology topology, PlacementContext context, boolean bindMemory, ChipletMemory memory,
            IntPredicate usableNode)
    {
        Path live = Path.of("/");
        PerfPlatform platform = PerfPlatform.read(live);
        EventCatalog catalog = EventCatalog.select(platform);
        SignalOpener opener = tid -> {
            RemoteAccessRate.Choice choice = RemoteAccessRate.open(CounterTarget.thread(tid), platform, catalog);
            if (!choice.hardware().isAvailable()) {
                log.debug("Chiplet adaptive policy on the software fallback for thread {}: {}", tid, choice.hardware());
            }
            return choice.signal();
        };
        AdaptiveController controller = new AdaptiveController(placement, topology,
                settings(context.settings(), placement.slots()), opener, context.driverHints(), context.metrics(), bindMemory, memory, usableNode);
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
            closeSignals();
        }
    }

    /** One controller period: measure, ask the driver, place. Package-private for tests, which drive it by hand. */
    void interval()
    {
        controller.beginInterval();
        int slots = placement.slots();
        double rateSum = 0;
        int measured = 0;
        if (measuring) {
            for (RemoteAccessSignal.Sample sample : sampleThreads(slots)) {
                rateSum += sample.ratePer(intervalNanos);
                measured++;
            }
        }
        hints = askDriver();
        int widest = 1;
        for (int slot = 0; slot < slots; slot++) {
            int stage = placement.stageIn(slot);
            spreads[slot] = stage >= 0 ? hints.chipletsFor(stage, controller.spread(slot)) : controller.spread(slot);
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
            log.debug("Chiplet adaptive policy moved later tasks: spreads {}, slots {}", spreads, PinnedTaskPlacement.describe(table));
        }
        metrics.spread(widest);
        if (measured > 0) {
            metrics.remoteAccessRate(rateSum / measured);
        }
    }

    /** Samples every task thread once, steps the controller for the slots running a task, closes signals of gone threads. */
    private List<RemoteAccessSignal.Sample> sampleThreads(int slots)
    {
        List<RemoteAccessSignal.Sample> busy = new ArrayList<>();
        Map<Integer, RemoteAccessSignal.Sample> byThread = new HashMap<>();
        for (int slot = 0; slot < slots && measuring; slot++) {
            int tid = placement.threadIn(slot);
            if (tid <= 0) {
                continue;
            }
            RemoteAccessSignal.Sample sample = byThread.get(tid);
            if (sample == null) {
                RemoteAccessSignal signal = signal(tid);
                if (signal == null) {
                    continue;
                }
                sample = signal.sample();
                byThread.put(tid, sample);
            }
            // An idle slot's thread is sampled too, so the next sample covers only its next task's time.
            if (placement.stageIn(slot) >= 0 && sample.intervalNanos() > 0) {
                controller.step(slot, sample.remoteEvents(), sample.intervalNanos());
                busy.add(sample);
            }
        }
        for (Iterator<Map.Entry<Integer, RemoteAccessSignal>> entries = signals.entrySet().iterator(); entries.hasNext(); ) {
            Map.Entry<Integer, RemoteAccessSignal> entry = entries.next();
            if (!byThread.containsKey(entry.getKey())) {
                entry.getValue().close();
                entries.remove();
            }
        }
        return busy;
    }

    private RemoteAccessSignal signal(int tid)
    {
        RemoteAccessSignal signal = signals.get(tid);
        if (signal != null) {
            return signal;
        }
        try {
            signal = opener.open(tid);
        }
        catch (RuntimeException e) {
            measuring = false;
            closeSignals();
            log.warn("Chiplet adaptive policy cannot read a remote-access signal, it follows the driver's skew hints only: {}", e.getMessage());
            return null;
        }
        signals.put(tid, signal);
        metrics.signalSource(signal.signalSource());
        return signal;
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

    private void closeSignals()
    {
        signals.values().forEach(RemoteAccessSignal::close);
        signals.clear();
    }

    /** The spread the controller holds for {@code slot}, hints aside. */
    int controllerSpread(int slot)
    {
        return controller.spread(slot);
    }

    @Override
    public void close()
    {
        Thread running = thread;
        if (running == null) {
            closeSignals();
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
