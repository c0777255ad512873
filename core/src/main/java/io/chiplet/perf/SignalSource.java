package io.chiplet.perf;

/** Where a {@link RemoteAccessSignal} gets its numbers; the placement engine and plugins report it. */
public enum SignalSource
{
    /** Vendor PMU events counting data-cache fills served from another chiplet, node or socket: CHARM's signal. */
    HARDWARE,
    /** Kernel software counters of the observed threads, used when no hardware counter can be had. */
    SOFTWARE_FALLBACK,
}
