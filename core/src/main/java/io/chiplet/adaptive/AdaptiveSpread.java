package io.chiplet.adaptive;

import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.perf.SignalSource;
import io.chiplet.placement.SpreadController;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The adaptive loop of both plugins: each worker's thread has a remote-access signal, and once per interval each busy
 * worker's sample steps CHARM's {@link SpreadController} (with {@link SpreadController.Settings#charm its band,
 * confirmation and move budget} around the operator's interval and threshold). The engines differ only in what a
 * worker is: Spark's are an executor's task slots (whose threads change as tasks come and go), Trino's the query
 * threads themselves.
 *
 * <ul>
 * <li>A worker is known by its key across intervals and keeps its spread and evidence while it stays; a new key
 * starts at spread 1, and a key that is gone is forgotten, so one worker's history never passes to another.</li>
 * <li>Each thread's signal is opened the first time a worker names it and closed once no worker does. A thread whose
 * signal cannot be opened stays at its spread (1 for a new worker) and is not tried again while it lives; the
 * step reports why, so the engine can warn.</li>
 * <li>Every named thread is sampled each interval, idle or not, so the next sample covers only its next work; only
 * busy workers step the controller.</li>
 * <li>When the widest spread changes (the usable chiplets changed), every worker starts afresh.</li>
 * </ul>
 *
 * Not thread-safe: one owner (the engine's loop thread) calls it. {@link #close()} closes every signal.
 */
public final class AdaptiveSpread
        implements AutoCloseable
{
    /** Opens one thread's remote-access signal; throws, naming why, where it cannot. */
    @FunctionalInterface
    public interface SignalOpener
    {
        RemoteAccessSignal open(int tid);
    }

    /**
     * One worker in this interval.
     *
     * @param key identifies the worker across intervals (a task slot, a thread id)
     * @param tid the native thread it runs on now; 0 for none
     * @param busy whether it runs work now: only then does its sample count
     */
    public record Worker(int key, int tid, boolean busy)
    {
        public Worker
        {
            if (tid < 0) {
                throw new IllegalArgumentException("tid must not be negative: " + tid);
            }
        }
    }

    /**
     * One worker after an interval.
     *
     * @param sample its thread's sample of this interval; empty without a thread or a signal
     * @param source what its thread's signal counts; empty without one
     */
    public record WorkerSpread(int key, int tid, int spread, Optional<RemoteAccessSignal.Sample> sample, Optional<SignalSource> source)
    {
        public WorkerSpread
        {
            requireNonNull(sample, "sample is null");
            requireNonNull(source, "source is null");
        }
    }

    /**
     * @param workers in the order they were given
     * @param meanRate the busy workers' mean signal per interval, over those that stepped; empty when none did
     * @param openFailures why signals could not be opened in this interval, one entry per thread
     */
    public record Step(List<WorkerSpread> workers, OptionalDouble meanRate, List<String> openFailures)
    {
        public Step
        {
            workers = List.copyOf(workers);
            requireNonNull(meanRate, "meanRate is null");
            openFailures = List.copyOf(openFailures);
        }

        /** The spreads, in the order of {@link #workers()}. */
        public int[] spreads()
        {
            return workers.stream().mapToInt(WorkerSpread::spread).toArray();
        }
    }

    private final long intervalNanos;
    private final double threshold;
    private final SignalOpener opener;
    private final Map<Integer, Optional<RemoteAccessSignal>> signals = new HashMap<>();
    private int[] keys = new int[0];
    private int maxSpread;
    private SpreadController controller;

    /**
     * @param intervalNanos the interval the engine steps at; the threshold is per interval
     * @param threshold signal events per interval above which a worker spreads; 0: on any remote access
     */
    public AdaptiveSpread(long intervalNanos, double threshold, SignalOpener opener)
    {
        // Validates both once, here, rather than at the first step.
        SpreadController.Settings.charm(intervalNanos, threshold, 1);
        this.intervalNanos = intervalNanos;
        this.threshold = threshold;
        this.opener = requireNonNull(opener, "opener is null");
    }

    /**
     * One interval: samples every named thread, steps the busy workers and returns every worker's spread.
     *
     * @param workers distinct keys
     * @param maxSpread the chiplets a worker may spread over
     */
    public Step step(List<Worker> workers, int maxSpread)
    {
        requireNonNull(workers, "workers is null");
        if (maxSpread < 1) {
            throw new IllegalArgumentException("maxSpread must be positive: " + maxSpread);
        }
        regroup(workers, maxSpread);
        if (controller != null) {
            controller.beginInterval();
        }
        Map<Integer, Optional<RemoteAccessSignal.Sample>> samples = new HashMap<>();
        List<String> failures = new ArrayList<>();
        List<WorkerSpread> spreads = new ArrayList<>(workers.size());
        double rateSum = 0;
        int stepped = 0;
        for (int index = 0; index < workers.size(); index++) {
            Worker worker = workers.get(index);
            Optional<RemoteAccessSignal> signal = worker.tid() == 0 ? Optional.empty() : signal(worker.tid(), failures);
            Optional<RemoteAccessSignal.Sample> sample = signal.isEmpty() ? Optional.empty()
                    : samples.computeIfAbsent(worker.tid(), tid -> Optional.of(signal.get().sample()));
            if (worker.busy() && sample.isPresent() && sample.get().intervalNanos() > 0) {
                controller.step(index, sample.get().remoteEvents(), sample.get().intervalNanos());
                rateSum += sample.get().ratePer(intervalNanos);
                stepped++;
            }
            spreads.add(new WorkerSpread(worker.key(), worker.tid(), controller.spread(index), sample, signal.map(RemoteAccessSignal::signalSource)));
        }
        Set<Integer> named = new HashSet<>();
        workers.forEach(worker -> named.add(worker.tid()));
        for (Iterator<Map.Entry<Integer, Optional<RemoteAccessSignal>>> entries = signals.entrySet().iterator(); entries.hasNext(); ) {
            Map.Entry<Integer, Optional<RemoteAccessSignal>> entry = entries.next();
            if (!named.contains(entry.getKey())) {
                entry.getValue().ifPresent(RemoteAccessSignal::close);
                entries.remove();
            }
        }
        return new Step(spreads, stepped == 0 ? OptionalDouble.empty() : OptionalDouble.of(rateSum / stepped), failures);
    }

    /** A controller for this interval's workers, carrying on those that stay. */
    private void regroup(List<Worker> workers, int maxSpread)
    {
        int[] next = new int[workers.size()];
        Set<Integer> distinct = new HashSet<>();
        for (int index = 0; index < next.length; index++) {
            next[index] = workers.get(index).key();
            if (!distinct.add(next[index])) {
                throw new IllegalArgumentException("worker key " + next[index] + " is given twice");
            }
        }
        if (Arrays.equals(next, keys) && maxSpread == this.maxSpread) {
            return;
        }
        if (next.length == 0) {
            controller = null;
        }
        else {
            SpreadController.Settings settings = SpreadController.Settings.charm(intervalNanos, threshold, next.length);
            int[] from = new int[next.length];
            Map<Integer, Integer> before = new HashMap<>();
            if (controller != null && maxSpread == this.maxSpread) {
                for (int index = 0; index < keys.length; index++) {
                    before.put(keys[index], index);
                }
            }
            for (int index = 0; index < next.length; index++) {
                from[index] = before.getOrDefault(next[index], -1);
            }
            controller = controller != null && maxSpread == this.maxSpread
                    ? controller.regrouped(from, settings)
                    : new SpreadController(next.length, maxSpread, settings);
        }
        keys = next;
        this.maxSpread = maxSpread;
    }

    private Optional<RemoteAccessSignal> signal(int tid, List<String> failures)
    {
        Optional<RemoteAccessSignal> known = signals.get(tid);
        if (known != null) {
            return known;
        }
        Optional<RemoteAccessSignal> opened;
        try {
            opened = Optional.of(opener.open(tid));
        }
        catch (RuntimeException e) {
            failures.add("thread " + tid + ": " + java.util.Objects.toString(e.getMessage(), e.toString()));
            opened = Optional.empty();
        }
        signals.put(tid, opened);
        return opened;
    }

    /** The interval the threshold is per. */
    public long intervalNanos()
    {
        return intervalNanos;
    }

    /** The spread of the worker with {@code key}, 1 for a worker not seen in the last interval. */
    public int spread(int key)
    {
        for (int index = 0; index < keys.length; index++) {
            if (keys[index] == key) {
                return controller.spread(index);
            }
        }
        return 1;
    }

    /** Every worker starts afresh at spread 1 at the next step (the chiplets it spreads over changed); signals stay open. */
    public void restart()
    {
        keys = new int[0];
        controller = null;
    }

    /** Closes every signal; a later step opens them anew. */
    @Override
    public void close()
    {
        signals.values().forEach(signal -> signal.ifPresent(RemoteAccessSignal::close));
        signals.clear();
    }
}
