package io.chiplet.spark.placement;

import io.chiplet.adaptive.AdaptiveLoop;
import io.chiplet.adaptive.AdaptiveSpread;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.ThreadSignals;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.slots.SlotPool;
import io.chiplet.slots.SlotTable;
import io.chiplet.spark.skew.SpreadHints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * {@code spark.chiplet.policy=adaptive}: core's {@link AdaptiveLoop} over one executor's task slots. Every
 * {@code spark.chiplet.adaptive.intervalMs} the loop samples each slot's task thread (one worker per slot, busy while a
 * task runs in it) against {@code spark.chiplet.adaptive.remoteAccessThreshold}; this class applies each step: it asks
 * the driver for its skew hints (a stage the driver names takes the hinted spread instead: heavy partitions wider,
 * light ones 1), lets core turn the spreads into targets ({@link WorkerPlacements#withSpreads}) and publishes them to the
 * slot pool: tasks started after it run there, running ones stay put.
 *
 * <p>One daemon thread per executor. When a thread's signal cannot be opened it warns once (that slot then follows the
 * driver's hints alone); when an interval fails it warns once and stops, leaving the last table in force.
 */
final class AdaptiveController
        implements AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(AdaptiveController.class);

    private final SlotPool pool;
    // The targets the slots follow now (rescoped by the pool after a cpuset change): each step starts from them.
    private final Supplier<WorkerPlacements> base;
    private final AdaptiveLoop loop;
    private final Supplier<SpreadHints> driver;
    private final PlacementMetrics metrics;
    private boolean driverWarned;
    private SpreadHints hints = SpreadHints.NONE;

    /**
     * @param spread the decision, at the configured interval and threshold, with the signal opener (closed with this)
     * @param base the targets each step starts from, as they are now
     */
    AdaptiveController(SlotPool pool, Supplier<WorkerPlacements> base, AdaptiveSpread spread, Supplier<SpreadHints> driver,
            PlacementMetrics metrics)
    {
        this.pool = requireNonNull(pool, "pool is null");
        this.base = requireNonNull(base, "base is null");
        this.driver = requireNonNull(driver, "driver is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.loop = new AdaptiveLoop(spread, this::apply, new AdaptiveLoop.Events()
        {
            @Override
            public void openFailed(String failure, boolean firstOfLoop)
            {
                if (firstOfLoop) {
                    log.warn("Chiplet adaptive policy cannot read a remote-access signal, its slot follows the driver's skew hints only: {}", failure);
                }
            }

            @Override
            public void stopped(RuntimeException cause)
            {
                log.warn("Chiplet adaptive policy stopped, later tasks keep their last placement: {}", cause.toString());
                log.debug("Chiplet adaptive policy failure", cause);
            }
        });
    }

    /** The decision at the configured interval and threshold, opening each task thread's signal with {@code opener}. */
    static AdaptiveSpread spread(PlacementSettings settings, AdaptiveSpread.SignalOpener opener)
    {
        return new AdaptiveSpread(settings.adaptiveInterval().toNanos(), settings.remoteAccessThreshold(), opener);
    }

    /** Starts the loop on {@code pool}, which must follow core's targets ({@link SlotPool#follow}). */
    static AdaptiveController start(SlotPool pool, PlacementContext context)
    {
        Supplier<WorkerPlacements> base = () -> pool.targets().orElseThrow(() -> new IllegalStateException("the slot pool follows no targets"));
        ThreadSignals signals = ThreadSignals.live();
        AdaptiveSpread.SignalOpener opener = tid -> {
            RemoteAccessRate.Choice choice = signals.open(tid);
            if (!choice.hardware().isAvailable()) {
                log.debug("Chiplet adaptive policy on the software fallback for thread {}: {}", tid, choice.hardware());
            }
            return choice.signal();
        };
        AdaptiveController controller = new AdaptiveController(pool, base, spread(context.settings(), opener), context.driverHints(), context.metrics());
        controller.loop.start(daemon("chiplet-adaptive-executor-" + context.executorId()), controller::round);
        log.info("Chiplet adaptive policy on executor {}: every {} ms, widen above {} remote accesses per interval, over up to {} chiplets",
                context.executorId(), context.settings().adaptiveInterval().toMillis(), context.settings().remoteAccessThreshold(), base.get().share().maxSpread());
        return controller;
    }

    /**
     * The executor's scheduler: one daemon thread named {@code threadName}, ticking with a fixed delay. Cancelling it
     * interrupts the thread and, unless called from the tick, waits up to five seconds for a tick in progress.
     */
    static AdaptiveLoop.Scheduler daemon(String threadName)
    {
        requireNonNull(threadName, "threadName is null");
        return (intervalNanos, tick) -> {
            Thread[] owner = new Thread[1];
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, threadName);
                thread.setDaemon(true);
                owner[0] = thread;
                return thread;
            });
            executor.scheduleWithFixedDelay(tick, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
            return () -> {
                executor.shutdownNow();
                if (Thread.currentThread() == owner[0]) {
                    return;
                }
                try {
                    executor.awaitTermination(5, TimeUnit.SECONDS);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
        };
    }

    /** The slots as the loop's workers: one per slot, its last thread, busy while a task runs in it. */
    private AdaptiveLoop.Round round()
    {
        int slots = pool.slots();
        List<AdaptiveSpread.Worker> workers = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            // An idle slot's thread is listed too, so its next sample covers only its next task's time.
            workers.add(new AdaptiveSpread.Worker(slot, Math.max(0, pool.threadIn(slot)), pool.workIn(slot) >= 0));
        }
        // How many chiplets a spread may cover: those of the share the targets were planned on (one without chiplets).
        return new AdaptiveLoop.Round(workers, base.get().share().maxSpread());
    }

    /** One controller period: measure, ask the driver, place. Package-private for tests, which drive it by hand. */
    void interval()
    {
        loop.interval(round());
    }

    private void apply(AdaptiveLoop.Round round, AdaptiveSpread.Step step)
    {
        step.workers().stream().flatMap(worker -> worker.source().stream()).findFirst().ifPresent(metrics::signalSource);
        hints = askDriver();
        int slots = pool.slots();
        int[] spreads = new int[slots];
        int widest = 1;
        for (int slot = 0; slot < slots; slot++) {
            int stage = pool.workIn(slot);
            int own = step.workers().get(slot).spread();
            spreads[slot] = stage >= 0 ? hints.chipletsFor(stage, own) : own;
            widest = Math.max(widest, Math.min(spreads[slot], round.maxSpread()));
        }
        SlotTable table = SlotTable.of(base.get().withSpreads(spreads));
        if (!table.equals(pool.table())) {
            pool.publish(table);
            log.debug("Chiplet adaptive policy moved later tasks: spreads {}, slots {}", spreads, SlotPool.describe(table));
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
        return loop.spread(slot);
    }

    @Override
    public void close()
    {
        loop.close();
    }
}
