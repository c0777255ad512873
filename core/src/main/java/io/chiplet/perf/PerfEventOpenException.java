package io.chiplet.perf;

import io.chiplet.nativeio.NativeCallException;

import static java.util.Objects.requireNonNull;

/** {@code perf_event_open} refused one event of a group; says which event, for what target, and the errno. */
public final class PerfEventOpenException
        extends RuntimeException
{
    private final PerfEvent event;
    private final int errno;

    public PerfEventOpenException(PerfEvent event, CounterScope target, NativeCallException cause)
    {
        super("cannot open perf event " + requireNonNull(event, "event is null").name() + " for "
                + requireNonNull(target, "target is null") + ": " + cause.getMessage(), cause);
        this.event = event;
        this.errno = cause.errno();
    }

    public PerfEvent event()
    {
        return event;
    }

    public int errno()
    {
        return errno;
    }
}
