package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Every thread of this process bound to one target's CPUs, by {@link ThreadBinder#bindProcess}; {@link #restore()}
 * (or {@code close}) gives them back. Restoring twice restores once; it may run on any thread.
 *
 * <p>Linux has no "whole process" affinity: each thread has its own mask and a new thread copies its creator's. So a
 * process bind binds every thread listed under {@code /proc/self/task}, then lists again until a pass finds no thread
 * it has not seen (a thread created by a not-yet-bound thread during the first pass has that thread's old mask).
 * After that, every new thread is created by a bound thread and inherits the binding. Threads that end meanwhile are
 * skipped.
 *
 * <p>The restore gives each thread it bound its own mask back, and every thread created since that still has exactly
 * the bound CPUs the mask the binding thread had before: a process that lives on after the binding (an executor in
 * the driver's JVM, Spark's local mode) gets all its threads back, not only those that existed at the bind.
 */
public final class BoundProcess
        implements AutoCloseable
{
    private static final int MAX_PASSES = 10;

    private final PinningBackend backend;
    private final PreparedAffinity target;
    private final List<BoundThread> threads;
    private final List<Integer> tids;
    // The binding thread's mask before the bind: what threads created since get back.
    private final CpuSet before;
    private boolean restored;

    private BoundProcess(PinningBackend backend, PreparedAffinity target, List<BoundThread> threads, List<Integer> tids, CpuSet before)
    {
        this.backend = backend;
        this.target = target;
        this.threads = List.copyOf(threads);
        this.tids = List.copyOf(tids);
        this.before = before;
    }

    /** @param threadOf another thread of this process by tid, as {@link ThreadBinder#thread} gives it */
    static BoundProcess bind(PinningBackend backend, IntFunction<BoundThread> threadOf, PreparedAffinity target)
    {
        CpuSet before = backend.getAffinity(0);
        List<BoundThread> bound = new ArrayList<>();
        List<Integer> tids = new ArrayList<>();
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
                        BoundThread thread = threadOf.apply(tid);
                        thread.bind(target);
                        bound.add(thread);
                        tids.add(tid);
                    }
                    catch (IllegalArgumentException e) {
                        if (ThreadId.isThreadOfThisProcess(tid)) {
                            throw e;
                        }
                        // The thread ended between listing and binding.
                    }
                }
                if (!foundNew) {
                    return new BoundProcess(backend, target, bound, tids, before);
                }
            }
        }
        catch (RuntimeException e) {
            new BoundProcess(backend, target, bound, tids, before).restoreBound();
            throw e;
        }
        new BoundProcess(backend, target, bound, tids, before).restoreBound();
        throw new IllegalStateException("threads kept appearing: bound " + bound.size() + " threads in " + MAX_PASSES
                + " passes over /proc/self/task and found new ones each time");
    }

    /** The CPUs every thread was bound to. */
    public CpuSet cpus()
    {
        return target.cpus();
    }

    /** The Linux thread ids bound (threads created since inherited the binding and are not listed). */
    public List<Integer> threads()
    {
        return tids;
    }

    /**
     * Gives every thread bound its mask of before, and every thread created since that still has exactly the bound
     * CPUs the binding thread's mask of before. Threads that have ended are skipped.
     */
    public synchronized void restore()
    {
        if (restored) {
            return;
        }
        restored = true;
        restoreBound();
        releaseThreadsCreatedSince();
    }

    @Override
    public void close()
    {
        restore();
    }

    private void restoreBound()
    {
        for (int i = threads.size() - 1; i >= 0; i--) {
            threads.get(i).restore();
        }
    }

    private void releaseThreadsCreatedSince()
    {
        Set<Integer> bound = new HashSet<>(tids);
        CpuSet cpus = target.cpus();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            if (bound.contains(tid)) {
                continue;
            }
            try {
                if (backend.getAffinity(tid).equals(cpus)) {
                    backend.setAffinity(tid, before);
                }
            }
            catch (RuntimeException e) {
                // The thread ended meanwhile.
            }
        }
    }
}
