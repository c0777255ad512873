package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.UnitObservation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The windows still gathering queries. The randomised unit is the window: each (stratum, window) sums its queries
 * until the window is complete, {@value QueryMeasurements#COMPLETE_AFTER_MILLIS} ms after it ended (widened by
 * {@value QueryMeasurements#MARGIN_MILLIS} ms), and is then recorded as one observation. Not thread-safe.
 */
final class OpenWindows
{
    private record WindowKey(String stratum, long window) {}

    /** One window's queries of one stratum, summed. */
    private static final class WindowTotal
    {
        final Arm arm;
        long queries;
        long cpuNanos;
        long bytes;
        long rows;

        WindowTotal(Arm arm)
        {
            this.arm = arm;
        }

        /**
         * The window's queries of one stratum as one observation, their totals: CPU time and what they read. The estimate
         * is a ratio of totals, so each query counts by its CPU time, as it does in the job. Its cluster is the window:
         * every shape's observation of one window shares the window's arm and its load, so they are not independent, and
         * the interval (and the guard reading it) counts windows, not shape-window pairs.
         */
        UnitObservation observation(String stratum, long window)
        {
            double seconds = cpuNanos / 1e9;
            return new UnitObservation(stratum, arm, seconds, seconds, 0, bytes, rows, windowCluster(window));
        }
    }

    private final Map<WindowKey, WindowTotal> open = new LinkedHashMap<>();
    private long completeBefore = Long.MIN_VALUE;
    private long recorded;

    /** The cluster of every observation of one window, whatever its shape ({@link UnitObservation#cluster()}). */
    static String windowCluster(long window)
    {
        return "window " + window;
    }

    /** Whether {@code window}'s observations were recorded already: a query of it now comes too late. */
    boolean complete(long window)
    {
        return window < completeBefore;
    }

    /** Adds a query to its window's total of {@code stratum}; the first query of the pair gives the arm. */
    void add(String stratum, long window, Arm arm, CompletedQuery query)
    {
        requireNonNull(query, "query is null");
        WindowTotal total = open.computeIfAbsent(new WindowKey(stratum, window), key -> new WindowTotal(arm));
        total.queries++;
        total.cpuNanos += query.cpuNanos();
        total.bytes += query.bytesRead();
        total.rows += query.rowsRead();
    }

    /**
     * Hands {@code record} one observation for each window complete at {@code nowMillis}; {@link Long#MAX_VALUE}
     * completes every window.
     */
    void recordComplete(WindowSchedule schedule, long nowMillis, Consumer<UnitObservation> record)
    {
        long before = nowMillis == Long.MAX_VALUE ? Long.MAX_VALUE
                : schedule.windowAt(nowMillis - QueryMeasurements.MARGIN_MILLIS - QueryMeasurements.COMPLETE_AFTER_MILLIS);
        if (before <= completeBefore) {
            return;
        }
        completeBefore = before;
        var entries = open.entrySet().iterator();
        while (entries.hasNext()) {
            var entry = entries.next();
            if (entry.getKey().window() < before) {
                record.accept(entry.getValue().observation(entry.getKey().stratum(), entry.getKey().window()));
                recorded++;
                entries.remove();
            }
        }
    }

    /** How many window observations were recorded. */
    long recorded()
    {
        return recorded;
    }

    /** How many queries the windows still open hold. */
    long queriesOpen()
    {
        return open.values().stream().mapToLong(total -> total.queries).sum();
    }
}
