package io.chiplet.perf;

import java.util.Arrays;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One {@code read} of a counter group: the raw counts in group order and the times the group was enabled and
 * actually on the PMU. When the kernel multiplexes more events than there are counters, {@code timeRunning} is
 * less than {@code timeEnabled} and {@link #scaled(int)} extrapolates, as {@code perf stat} does.
 */
public final class GroupReading
{
    private final List<PerfEvent> events;
    private final long[] rawValues;
    private final long timeEnabledNanos;
    private final long timeRunningNanos;

    public GroupReading(List<PerfEvent> events, long[] rawValues, long timeEnabledNanos, long timeRunningNanos)
    {
        this.events = List.copyOf(requireNonNull(events, "events is null"));
        this.rawValues = requireNonNull(rawValues, "rawValues is null").clone();
        if (this.rawValues.length != this.events.size()) {
            throw new IllegalArgumentException("read returned " + rawValues.length + " values for " + events.size() + " events");
        }
        this.timeEnabledNanos = timeEnabledNanos;
        this.timeRunningNanos = timeRunningNanos;
    }

    public List<PerfEvent> events()
    {
        return events;
    }

    public int size()
    {
        return rawValues.length;
    }

    public long raw(int index)
    {
        return rawValues[index];
    }

    /** Nanoseconds the group was enabled: for a thread target, only while that thread was scheduled. */
    public long timeEnabledNanos()
    {
        return timeEnabledNanos;
    }

    /** Nanoseconds the group was actually counting on the PMU. */
    public long timeRunningNanos()
    {
        return timeRunningNanos;
    }

    /** The count for member {@code index}, scaled by enabled/running time; 0 when the group never ran. */
    public long scaled(int index)
    {
        return scale(rawValues[index], timeEnabledNanos, timeRunningNanos);
    }

    /** The scaled count of the event named {@code name}. */
    public long scaled(String name)
    {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).name().equals(name)) {
                return scaled(i);
            }
        }
        throw new IllegalArgumentException("no event " + name + " in group " + events);
    }

    /** True when the events shared the PMU with others for part of the time, so counts are estimates. */
    public boolean multiplexed()
    {
        return timeRunningNanos < timeEnabledNanos;
    }

    static long scale(long raw, long enabled, long running)
    {
        if (running <= 0) {
            return 0;
        }
        if (running >= enabled) {
            return raw;
        }
        return Math.round(raw * ((double) enabled / running));
    }

    @Override
    public String toString()
    {
        return "GroupReading{events=" + events.stream().map(PerfEvent::name).toList() + ", raw=" + Arrays.toString(rawValues)
                + ", enabled=" + timeEnabledNanos + "ns, running=" + timeRunningNanos + "ns}";
    }
}
