package io.chiplet.binding;

import io.chiplet.affinity.ThreadBinder;
import io.chiplet.topology.CpuSet;

import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Binds this whole process (every thread, and the memory it allocates from then on) to CPUs, for
 * {@link ChipletLock#bindProcess}: the native seam, so that a plugin's lease and fallback logic runs in tests without
 * touching the test JVM. {@link #live} is the kernel's, on core's {@link ThreadBinder#bindProcess}.
 */
public interface ProcessBinder
{
    /** The live binder: {@code binder}'s backend for every thread's CPUs, {@link MemoryEnforcement#PREFERRED} for memory. */
    static ProcessBinder live(ThreadBinder binder)
    {
        return new LiveProcessBinder(requireNonNull(binder, "binder is null"));
    }

    /** The CPUs this process may be bound to (online, inside its cgroup cpuset). */
    CpuSet pinnableCpus();

    /**
     * Binds every thread of the process to {@code cpus} and, when {@code memoryNode} is present, sets the memory
     * policy of the calling thread (and so of every thread it creates later) to prefer that NUMA node.
     *
     * @throws RuntimeException when the kernel refuses; nothing stays bound then
     */
    Binding bind(CpuSet cpus, OptionalInt memoryNode);

    /** What {@link #bind} did; closing it gives the threads their previous masks back. */
    interface Binding
            extends AutoCloseable
    {
        /** Why memory is not bound when it was asked for (the kernel refused the node); empty when bound or not asked. */
        Optional<String> memoryProblem();

        @Override
        void close();
    }
}
