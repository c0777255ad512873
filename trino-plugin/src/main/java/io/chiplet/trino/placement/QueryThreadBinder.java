package io.chiplet.trino.placement;

import io.chiplet.topology.CpuSet;

import java.util.List;
import java.util.Optional;

/**
 * Binds query threads by thread id (and lists the JVM's native threads to find them): everything the placement agent
 * does to the threads, so that its decisions run against fakes in tests and {@link LiveQueryThreadBinder} stays a thin
 * layer over {@code /proc} and core's {@code ThreadBinder}. CPUs only: a thread's memory policy can only be set by the
 * thread itself.
 */
public interface QueryThreadBinder
{
    /** The JVM's native threads now. */
    List<NativeThread> threads();

    /**
     * Binds thread {@code tid} to {@code cpus} (its mask; a thread bound before is moved).
     *
     * @return the binding, to give the thread the mask it had before; empty when the thread has ended
     */
    Optional<Binding> bind(int tid, CpuSet cpus);

    /**
     * The process's allowed CPUs changed to {@code nowAllowed}: later binds are checked against them, and a restore
     * gives a thread its old mask within them. A binder that calls no kernel has nothing to do.
     */
    default void follow(CpuSet nowAllowed) {}

    /** A bound thread: {@link #restore()} gives it the mask it had before its first bind. */
    interface Binding
    {
        void restore();
    }
}
