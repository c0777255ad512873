package io.chiplet.perf;

import static java.util.Objects.requireNonNull;

/** A vendor event that counts fills from one {@link FillSource}. */
public record FillSourceEvent(PerfEvent event, FillSource source)
{
    public FillSourceEvent
    {
        requireNonNull(event, "event is null");
        requireNonNull(source, "source is null");
    }
}
