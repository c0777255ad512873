package io.chiplet.trino.placement;

import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.perf.ThreadSignals;

/**
 * Opens a query thread's remote-access signal for the adaptive loop, so that the agent runs against fakes in tests.
 * Kept apart from {@link QueryThreadBinder}: reading a thread's counters binds nothing.
 */
@FunctionalInterface
public interface RemoteAccessSignals
{
    /**
     * Opens thread {@code tid}'s remote-access signal (per-thread hardware counters, or the software fallback).
     *
     * @throws RuntimeException naming why when neither can be opened
     */
    RemoteAccessSignal open(int tid);

    /** The live machine's signals ({@link RemoteAccessRate} through core's {@link ThreadSignals}). */
    static RemoteAccessSignals live()
    {
        ThreadSignals signals = ThreadSignals.live();
        return tid -> signals.open(tid).signal();
    }
}
