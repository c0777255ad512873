package io.chiplet.slots;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.PinningBackend;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.topology.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Binds nothing: makes targets through core's {@link ThreadBinder} (checked against the CPUs allowed, as live) and keeps each thread's "mask" and "memory node" in fields, as the kernel would per thread, so tests
 * check what a slot pool (or an engine's placement over it) set and that it undid exactly that.
 */
public final class FakeSlotBinder
        implements SlotBinder
{
    public record Bound(Thread thread, CpuSet cpus, OptionalInt memoryNode) {}

    private final ThreadLocal<CpuSet> mask;
    private final ThreadLocal<OptionalInt> memory = ThreadLocal.withInitial(OptionalInt::empty);
    private final List<Bound> bound = new ArrayList<>();
    private int restored;
    private RuntimeException failNext;

    // Makes and checks targets only: its backend is never called.
    private final ThreadBinder targets;

    /** @param initialMask each thread's mask before its first task, and the CPUs the process may use */
    public FakeSlotBinder(CpuSet initialMask)
    {
        this.mask = ThreadLocal.withInitial(() -> initialMask);
        this.targets = new ThreadBinder(PinningBackend.fromName("ffm"), new PinnableCpus(initialMask, initialMask, initialMask));
    }

    @Override
    public PreparedAffinity prepare(CpuSet cpus, OptionalInt memoryNode)
    {
        return targets.prepare(cpus, SlotBinder.preferred(memoryNode));
    }

    @Override
    public synchronized Binding bind(PreparedAffinity target)
    {
        CpuSet cpus = target.cpus();
        OptionalInt memoryNode = target.memory().map(policy -> OptionalInt.of(policy.nodes().first())).orElse(OptionalInt.empty());
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
                synchronized (FakeSlotBinder.this) {
                    restored++;
                }
            }
        };
    }

    private final java.util.Map<Integer, CpuSet> followed = new java.util.HashMap<>();
    private CpuSet limit = CpuSet.empty();

    @Override
    public synchronized void follow(CpuSet nowAllowed)
    {
        limit = nowAllowed;
        targets.follow(nowAllowed);
    }

    @Override
    public synchronized void move(int tid, PreparedAffinity target)
    {
        followed.put(tid, target.cpus());
    }

    /** The threads {@link #move} moved after a cpuset change, with their new CPUs. */
    public synchronized java.util.Map<Integer, CpuSet> followed()
    {
        return java.util.Map.copyOf(followed);
    }

    public synchronized CpuSet limit()
    {
        return limit;
    }

    public synchronized void failNext(RuntimeException failure)
    {
        failNext = failure;
    }

    public CpuSet mask()
    {
        return mask.get();
    }

    public OptionalInt memory()
    {
        return memory.get();
    }

    public synchronized List<Bound> bound()
    {
        return List.copyOf(bound);
    }

    public synchronized int restored()
    {
        return restored;
    }
}
