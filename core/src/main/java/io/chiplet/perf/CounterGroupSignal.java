package io.chiplet.perf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * A {@link RemoteAccessSignal} over one enabled counter group: each sample is the per-event delta since the
 * previous read, and the signal value is the sum of the deltas of the events {@code summed} selects.
 * Deltas rather than a reset keep a sample to one {@code read}.
 */
final class CounterGroupSignal
        implements RemoteAccessSignal
{
    private final PerfCounterGroup group;
    private final SignalSource signalSource;
    private final Predicate<PerfEvent> summed;
    private final String description;
    private final LongSupplier nanoTime;
    private final long[] previous;
    private long previousNanos;

    CounterGroupSignal(PerfCounterGroup group, SignalSource signalSource, Predicate<PerfEvent> summed, LongSupplier nanoTime)
    {
        this.group = requireNonNull(group, "group is null");
        this.signalSource = requireNonNull(signalSource, "signalSource is null");
        this.summed = requireNonNull(summed, "summed is null");
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
        this.description = group.events().stream().filter(summed).map(PerfEvent::name).collect(Collectors.joining(" + "))
                + " of " + group.target();
        this.previous = new long[group.events().size()];
        group.enable();
        this.previousNanos = nanoTime.getAsLong();
    }

    @Override
    public Sample sample()
    {
        GroupReading reading = group.read();
        long now = nanoTime.getAsLong();
        List<PerfEvent> events = group.events();
        Map<String, Long> components = new LinkedHashMap<>();
        long total = 0;
        for (int i = 0; i < events.size(); i++) {
            long value = reading.scaled(i);
            long delta = Math.max(0, value - previous[i]);
            previous[i] = value;
            components.put(events.get(i).name(), delta);
            if (summed.test(events.get(i))) {
                total += delta;
            }
        }
        long interval = now - previousNanos;
        previousNanos = now;
        return new Sample(signalSource, interval, total, components);
    }

    @Override
    public String source()
    {
        return description;
    }

    @Override
    public SignalSource signalSource()
    {
        return signalSource;
    }

    @Override
    public void close()
    {
        group.close();
    }
}
