package io.chiplet.spark.placement;

import io.chiplet.adaptive.AdaptiveSpread;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.ThreadSignals;
import io.chiplet.placement.WorkerTargets;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.skew.SpreadHints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.policy=adaptive}: CHARM's spread control for one executor's task slots. Every
 * {@code spark.chiplet.adaptive.intervalMs} it samples each task thread's remote-access signal (hardware fill
 * counters where the machine has them, the software fallback where it does not) and steps core's
 * {@link AdaptiveSpread} loop, one worker per slot, against {@code spark.chiplet.adaptive.remoteAccessThreshold}; asks the driver for its skew hints (a stage
 * the driver names takes the hinted spread instead: heavy partitions wider, light ones 1), and lets core turn the
 * spreads into targets ({@link WorkerTargets#withSpreads}: chiplets, whole-chiplet CPUs, memory nodes). The result is
 * published to the placement: tasks started after it run there, running ones stay put.
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
    // The targets the slots follow now (rescoped by the placement after a cpuset change): each step starts from them.
    private final Supplier<WorkerTargets> base;
    private final AdaptiveSpread spread;
    private final Supplier<SpreadHints> driver;
    private final PlacementMetrics metrics;
    private final int[] spreads;
    private boolean signalWarned;
    private boolean driverWarned;
    private SpreadHints hints = SpreadHints.NONE;
    private volatile Thread thread;

    /**
     * @param spread the loop, at the configured interval and threshold, with the signal opener (closed with this)
     * @param base the targets each step starts from, as they are now
     */
    AdaptiveController(BoundTaskPlacement placement, Supplier<WorkerTargets> base, AdaptiveSpread spread, Supplier<SpreadHints> driver,
            PlacementMetrics metrics)
    {
        this.placement = requireNonNull(placement, "placement is null");
        this.base = requireNonNull(base, "base is null");
        this.spread = requireNonNull(spread, "spread is null");
        this.driver = requireNonNull(driver, "driver is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.spreads = new int[placement.slots()];
    }

    /** The loop at the configured interval and threshold, opening each task thread's signal with {@code opener}. */
    static AdaptiveSpread loop(PlacementSettings settings, AdaptiveSpread.SignalOpener opener)
    {
        return new AdaptiveSpread(settings.adaptiveInterval().toNanos(), settings.remoteAccessThreshold(), opener);
    }

    /** Starts the loop on {@code placement}, which must follow core's targets ({@link BoundTaskPlacement#follow}). */
    static AdaptiveController start(BoundTaskPlacement placement, PlacementContext context)
    {
        Supplier<WorkerTargets> base = () -> placement.targets().orElseThrow(() -> new IllegalStateException("the placement follows no targets"));
        ThreadSignals signals = ThreadSignals.live();
        AdaptiveSpread.SignalOpener opener = tid -> {
            RemoteAccessRate.Choice choice = signals.open(tid);
            if (!choice.hardware().isAvailable()) {
                log.debug("Chiplet adaptive policy on the software fallback for thread {}: {}", tid, choice.hardware());
            }
            return choice.signal();
        };
        AdaptiveController controller = new AdaptiveController(placement, base, loop(context.settings(), opener),
                context.driverHints(), context.metrics());
        Thread thread = new Thread(() -> controller.loop(context.settings().adaptiveInterval().toMillis()), "chiplet-adaptive-executor-" + context.executorId());
        thread.setDaemon(true);
        controller.thread = thread;
        thread.start();
        log.info("Chiplet adaptive policy on executor {}: every {} ms, widen above {} remote accesses per interval, over up to {} chiplets",
                context.executorId(), context.settings().adaptiveInterval().toMillis(), context.settings().remoteAccessThreshold(), chiplets(base.get()));
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
        WorkerTargets now = base.get();
        int chiplets = chiplets(now);
        AdaptiveSpread.Step step = spread.step(workers, chiplets);
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
            widest = Math.max(widest, Math.min(spreads[slot], chiplets));
        }
        SlotTable table = SlotTable.of(now.withSpreads(spreads.clone()));
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

    /** How many chiplets a spread may cover: those of the share the targets were planned on (one without chiplets). */
    private static int chiplets(WorkerTargets targets)
    {
        return targets.share().maxSpread();
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
