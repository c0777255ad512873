package io.chiplet.perf;

import java.util.Map;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/** A software-fallback signal for tests: each sample covers one interval and counts what {@code remoteEvents} says. */
public final class FakeRemoteAccessSignal
        implements RemoteAccessSignal
{
    private final long intervalNanos;
    private final LongSupplier remoteEvents;
    private final Runnable onClose;

    public FakeRemoteAccessSignal(long intervalNanos, LongSupplier remoteEvents, Runnable onClose)
    {
        this.intervalNanos = intervalNanos;
        this.remoteEvents = requireNonNull(remoteEvents, "remoteEvents is null");
        this.onClose = requireNonNull(onClose, "onClose is null");
    }

    @Override
    public Sample sample()
    {
        return new Sample(SignalSource.SOFTWARE_FALLBACK, intervalNanos, remoteEvents.getAsLong(), Map.of());
    }

    @Override
    public String source()
    {
        return "minor-faults";
    }

    @Override
    public SignalSource signalSource()
    {
        return SignalSource.SOFTWARE_FALLBACK;
    }

    @Override
    public void close()
    {
        onClose.run();
    }
}
