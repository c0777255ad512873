package io.chiplet.trino.placement;

import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.topology.CpuSet;

import java.util.List;
import java.util.Optional;

/**
 * Everything the placement agent does to the JVM's native threads, so that its decisions run against fakes in tests
 * and {@link LiveThreadControl} stays a thin layer over {@code /proc} and {@code sched_setaffinity}.
 */
public interface ThreadControl
{
    /** The JVM's native threads now. */
    List<NativeThread> threads();

    /**
     * Pins thread {@code tid} to {@code cpus}.
     *
     * @return how to give the thread the mask it had before; empty when the thread has ended
     */
    Optional<Restore> pin(int tid, CpuSet cpus);

    /**
     * Opens thread {@code tid}'s remote-access signal (per-thread hardware counters, or the software fallback).
     *
     * @throws RuntimeException naming why when neither can be opened
     */
    RemoteAccessSignal openSignal(int tid);

    /** Gives a pinned thread its earlier mask back. */
    interface Restore
    {
        void restore();
    }
}
