package io.chiplet.cli;

import io.chiplet.cli.AvailabilityListing.EventStatus;
import io.chiplet.perf.CounterScope;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.GroupReading;
import io.chiplet.perf.PerfCounterGroup;
import io.chiplet.perf.PerfEvent;
import io.chiplet.perf.PerfEventOpenException;
import io.chiplet.perf.PerfPlatform;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.RemoteAccessSignal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The live sampling loop of {@code chiplet counters}: one counter group and the remote-access signal on a thread. */
final class CounterSampler
{
    /** One interval of live counts. */
    record Interval(long intervalNanos, Map<String, Long> counts, RemoteAccessSignal.Sample signal) {}

    private CounterSampler() {}

    /**
     * Counts the available software events and the remote-access signal for {@code count} intervals, adding each to
     * {@code intervals} as it ends; returns the signal in use.
     *
     * @throws PerfEventOpenException when the counters cannot be opened
     */
    static String sample(CounterScope target, PerfPlatform platform, EventCatalog catalog, List<EventStatus> statuses, int count, long intervalMillis, List<Interval> intervals)
    {
        List<PerfEvent> software = statuses.stream()
                .filter(status -> status.group().equals("software") && status.availability().isAvailable())
                .map(EventStatus::event)
                .toList();
        RemoteAccessRate.Choice choice = RemoteAccessRate.open(target, platform, catalog);
        try (RemoteAccessSignal signal = choice.signal();
                PerfCounterGroup group = PerfCounterGroup.open(target, software, platform.kernelCountingAllowed())) {
            // The signal's intervals start with the group's, so its column counts what the group's does: a first sample
            // (its classes load, faulting pages in) before the group counts, a second to start from the group's start.
            signal.sample();
            group.enable();
            signal.sample();
            long[] previous = new long[software.size()];
            long previousNanos = System.nanoTime();
            for (int i = 0; i < count; i++) {
                sleep(intervalMillis);
                // The signal is read right after the group, before anything here allocates (a first touch of a page is a
                // minor fault): under the software fallback both count the same faults and their columns agree.
                GroupReading reading = group.read();
                RemoteAccessSignal.Sample remote = signal.sample();
                long now = System.nanoTime();
                Map<String, Long> counts = new LinkedHashMap<>();
                for (int j = 0; j < software.size(); j++) {
                    long value = reading.scaled(j);
                    counts.put(software.get(j).name(), value - previous[j]);
                    previous[j] = value;
                }
                intervals.add(new Interval(now - previousNanos, counts, remote));
                previousNanos = now;
            }
            return signal.signalSource() + " (" + signal.source() + ")";
        }
    }

    private static void sleep(long millis)
    {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sampling counters", e);
        }
    }
}
