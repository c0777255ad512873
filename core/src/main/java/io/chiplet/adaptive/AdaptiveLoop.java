package io.chiplet.adaptive;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The adaptive policy's run-time loop, once for every engine: each interval it samples the engine's workers, decides
 * their spreads with {@link AdaptiveSpread} and hands the step to the engine to apply (Spark publishes a new slot table
 * for later tasks, Trino pins its query threads). The engine only says what its workers are ({@link Round}) and how a
 * step is applied ({@link Apply}); the decision stays pure.
 *
 * <p>What drives the intervals is passed in, as the package keeps no clocks or threads: {@link #start} runs on a
 * {@link Scheduler} (on a server one daemon thread of the engine's, in a test one ticked by hand), or an engine that
 * already runs a periodic pass calls {@link #interval} from it. The signals are {@link AdaptiveSpread}'s opener's, so
 * a test gives fake counters and a fake interval, and sleeps nowhere.
 *
 * <p>Fail open: a scheduled interval that throws reports it once ({@link Events#stopped}), closes the signals and stops
 * the loop; what was applied last stays in force. A thread whose signal cannot be opened is reported
 * ({@link Events#openFailed}), the first one of the loop marked so an adapter can warn once.
 *
 * <p>Thread-safe: intervals, {@link #restart} and the readers hold the loop's lock; {@link #close} stops the schedule
 * first, outside it.
 */
public final class AdaptiveLoop
        implements AutoCloseable
{
    /**
     * The workers of one interval and the chiplets each may spread over.
     *
     * @param workers distinct keys (an executor's task slots, a node's query threads)
     * @param maxSpread the chiplets a worker may spread over now
     */
    public record Round(List<AdaptiveSpread.Worker> workers, int maxSpread)
    {
        public Round
        {
            workers = List.copyOf(workers);
            if (maxSpread < 1) {
                throw new IllegalArgumentException("maxSpread must be positive: " + maxSpread);
            }
        }
    }

    /** Applies one interval's step to the engine: where later work goes. */
    @FunctionalInterface
    public interface Apply
    {
        void apply(Round round, AdaptiveSpread.Step step);
    }

    /** Runs {@code tick} every {@code intervalNanos}, the first after one interval, until the schedule is cancelled. */
    @FunctionalInterface
    public interface Scheduler
    {
        Schedule every(long intervalNanos, Runnable tick);
    }

    /** A running schedule. */
    @FunctionalInterface
    public interface Schedule
    {
        /**
         * Stops the ticks; from another thread it waits for a tick in progress to end, from the tick itself it does
         * not wait.
         */
        void cancel();
    }

    /** What the loop tells its engine, which logs it. */
    public interface Events
    {
        /**
         * A thread's signal could not be opened; its worker keeps its spread (1 for a new one).
         *
         * @param firstOfLoop whether it is the first such failure since the loop started
         */
        default void openFailed(String failure, boolean firstOfLoop) {}

        /** A scheduled interval failed: the loop has stopped and closed its signals; the last step stays applied. */
        default void stopped(RuntimeException cause) {}
    }

    private final AdaptiveSpread spread;
    private final Apply apply;
    private final Events events;

    // Guarded by this.
    private Optional<AdaptiveSpread.Step> lastStep = Optional.empty();
    private boolean openFailureReported;
    private boolean stopped;
    private Schedule schedule;

    public AdaptiveLoop(AdaptiveSpread spread, Apply apply, Events events)
    {
        this.spread = requireNonNull(spread, "spread is null");
        this.apply = requireNonNull(apply, "apply is null");
        this.events = requireNonNull(events, "events is null");
    }

    /** The interval the threshold is per. */
    public long intervalNanos()
    {
        return spread.intervalNanos();
    }

    /** One interval: samples and decides for {@code round}'s workers, applies the step and returns it. */
    public synchronized AdaptiveSpread.Step interval(Round round)
    {
        requireNonNull(round, "round is null");
        AdaptiveSpread.Step step = spread.step(round.workers(), round.maxSpread());
        for (String failure : step.openFailures()) {
            events.openFailed(failure, !openFailureReported);
            openFailureReported = true;
        }
        lastStep = Optional.of(step);
        apply.apply(round, step);
        return step;
    }

    /**
     * Runs an interval of {@code sample}'s round at every tick of {@code scheduler}, until {@link #close} or the first
     * failure.
     */
    public void start(Scheduler scheduler, Supplier<Round> sample)
    {
        requireNonNull(scheduler, "scheduler is null");
        requireNonNull(sample, "sample is null");
        synchronized (this) {
            if (schedule != null || stopped) {
                throw new IllegalStateException("the adaptive loop is already started or stopped");
            }
            schedule = () -> {};
        }
        Schedule running = scheduler.every(intervalNanos(), () -> tick(sample));
        synchronized (this) {
            schedule = running;
        }
    }

    private void tick(Supplier<Round> sample)
    {
        synchronized (this) {
            if (stopped) {
                return;
            }
            try {
                interval(sample.get());
                return;
            }
            catch (RuntimeException e) {
                stopped = true;
                spread.close();
                events.stopped(e);
            }
        }
        cancel();
    }

    /** Whether the loop stopped: closed, or a scheduled interval failed. */
    public synchronized boolean stopped()
    {
        return stopped;
    }

    /** The last interval's step; empty before the first and after {@link #reset}. */
    public synchronized Optional<AdaptiveSpread.Step> lastStep()
    {
        return lastStep;
    }

    /** The spread the loop holds for the worker with {@code key}; 1 for one not in the last interval. */
    public synchronized int spread(int key)
    {
        return spread.spread(key);
    }

    /** Every worker starts afresh at spread 1 at the next interval (the chiplets changed); signals stay open. */
    public synchronized void restart()
    {
        spread.restart();
    }

    /** As after construction: signals closed, every worker afresh, no last step (the engine stopped placing for now). */
    public synchronized void reset()
    {
        spread.close();
        spread.restart();
        lastStep = Optional.empty();
    }

    private void cancel()
    {
        Schedule running;
        synchronized (this) {
            running = schedule;
        }
        if (running != null) {
            running.cancel();
        }
    }

    /** Stops the schedule (waiting for an interval in progress) and closes every signal. */
    @Override
    public void close()
    {
        synchronized (this) {
            stopped = true;
        }
        cancel();
        synchronized (this) {
            spread.close();
        }
    }
}
