package io.chiplet.spark.placement;

import io.chiplet.topology.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Binds nothing: keeps each thread's "mask" and "memory node" in fields, as the kernel would per thread, so tests
 * check what a placement set and that it undid exactly that.
 */
final class FakeThreadBinder
        implements ThreadBinder
{
    record Bound(Thread thread, CpuSet cpus, OptionalInt memoryNode) {}

    private final ThreadLocal<CpuSet> mask;
    private final ThreadLocal<OptionalInt> memory = ThreadLocal.withInitial(OptionalInt::empty);
    private final List<Bound> bound = new ArrayList<>();
    private int restored;
    private RuntimeException failNext;

    FakeThreadBinder(CpuSet initialMask)
    {
        this.mask = ThreadLocal.withInitial(() -> initialMask);
    }

    @Override
    public synchronized Binding bind(CpuSet cpus, OptionalInt memoryNode)
    {
        if (failNext != null) {
            RuntimeException failure = failNext;
            failNext = null;
            throw failure;
        }
        CpuSet previousMask = mask.get();
        OptionalInt previousMemory = memory.get();
        mask.set(cpus);
        if (memoryNode.isPresent()) {
            memory.set(memoryNode);
        }
        bound.add(new Bound(Thread.currentThread(), cpus, memoryNode));
        Thread owner = Thread.currentThread();
        return new Binding()
        {
            @Override
            public int tid()
            {
                return (int) owner.threadId();
            }

            @Override
            public void restore()
            {
                if (Thread.currentThread() != owner) {
                    throw new IllegalStateException("restored on another thread");
                }
                mask.set(previousMask);
                memory.set(previousMemory);
                synchronized (FakeThreadBinder.this) {
                    restored++;
                }
            }
        };
    }

    private final java.util.Map<Integer, CpuSet> followed = new java.util.HashMap<>();
    private CpuSet limit = CpuSet.empty();

    @Override
    public synchronized void follow(CpuSet nowAllowed, java.util.Map<Integer, CpuSet> runningThreads)
    {
        limit = nowAllowed;
        followed.putAll(runningThreads);
    }

    /** The threads {@link #follow} moved, with their new CPUs. */
    synchronized java.util.Map<Integer, CpuSet> followed()
    {
        return java.util.Map.copyOf(followed);
    }

    synchronized CpuSet limit()
    {
        return limit;
    }

    synchronized void failNext(RuntimeException failure)
    {
        failNext = failure;
    }

    CpuSet mask()
    {
        return mask.get();
    }

    OptionalInt memory()
    {
        return memory.get();
    }

    synchronized List<Bound> bound()
    {
        return List.copyOf(bound);
    }

    synchronized int restored()
    {
        return restored;
    }
}
