package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Binds every thread of this process to a CPU set; {@link #close()} gives each thread that still exists its
 * previous mask back.
 *
 * <p>Linux has no "whole process" affinity: each thread has its own mask and a new thread copies its creator's.
 * So this pins every thread listed under {@code /proc/self/task}, then lists again until a pass finds no thread it
 * has not seen (a thread created by a not-yet-pinned thread during the first pass has that thread's old mask).
 * After that, every new thread is created by a bound thread and inherits the binding. Threads that end meanwhile
 * are skipped.
 */
public final class ProcessBinding
        implements AutoCloseable
{
    private static final int MAX_PASSES = 10;

    private final List<PinnedThread> pinned;
    private final CpuSet cpus;

    private ProcessBinding(List<PinnedThread> pinned, CpuSet cpus)
    {
        this.pinned = List.copyOf(pinned);
        this.cpus = cpus;
    }

    /**
     * @throws IllegalArgumentException when a CPU is not allowed (checked before any thread is touched)
     * @throws IllegalStateException when threads keep appearing faster than they can be bound
     */
    public static ProcessBinding bind(ThreadAffinity affinity, CpuSet cpus)
    {
        requireNonNull(affinity, "affinity is null");
        requireNonNull(cpus, "cpus is null");
        affinity.allowed().check(cpus);
        List<PinnedThread> pinned = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        try {
            for (int pass = 0; pass < MAX_PASSES; pass++) {
                boolean foundNew = false;
                for (int tid : ThreadId.threadsOfThisProcess()) {
                    if (!seen.add(tid)) {
                        continue;
                    }
                    foundNew = true;
                    try {
                        pinned.add(affinity.pinThread(tid, cpus));
                    }
                    catch (IllegalArgumentException e) {
                        if (ThreadId.isThreadOfThisProcess(tid)) {
                            throw e;
                        }
                        // The thread ended between listing and pinning.
                    }
                }
                if (!foundNew) {
                    return new ProcessBinding(pinned, cpus);
                }
            }
        }
        catch (RuntimeException e) {
            new ProcessBinding(pinned, cpus).close();
            throw e;
        }
        new ProcessBinding(pinned, cpus).close();
        throw new IllegalStateException("threads kept appearing: bound " + pinned.size() + " threads in " + MAX_PASSES
                + " passes over /proc/self/task and found new ones each time");
    }

    public CpuSet cpus()
    {
        return cpus;
    }

    /** The thread ids bound. */
    public List<Integer> threads()
    {
        return pinned.stream().map(PinnedThread::tid).toList();
    }

    @Override
    public void close()
    {
        for (int i = pinned.size() - 1; i >= 0; i--) {
            pinned.get(i).close();
        }
    }
}
