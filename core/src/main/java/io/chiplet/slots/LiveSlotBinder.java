package io.chiplet.slots;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.BoundThread;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.topology.CpuSet;

import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Core's {@link ThreadBinder}, keeping each worker thread's own state ({@link ThreadBinder#keepingOwnState()}): one
 * {@code sched_setaffinity} to bind and one to restore, and with a node one {@code set_mempolicy} more each; none
 * where the slot is the thread's whole mask already. Nothing is allocated per unit of work (a Spark task).
 *
 * <p>Why so few calls: the plan's CPUs are checked against the process's allowed CPUs once ({@link #target}), not per
 * task; and a task thread's own mask and memory policy are read once, on its first task, and kept with the thread.
 * Between two tasks the plugin is the last to have set them (it restored them at the end of the previous task), so
 * they are what the thread has: reading them again per task would be two syscalls for no information. A thread's
 * mask changed from outside between two of its tasks ({@code taskset -p} on an executor thread) is therefore not
 * noticed: the end of its next task restores the mask it had at its first. A cpuset change ({@link #follow}) has the
 * masks read again and restored within the CPUs allowed now.
 */
public final class LiveSlotBinder
        implements SlotBinder
{
    private final ThreadBinder binder;
    // One per task thread, reused as the binding of each of its tasks: a thread runs one task at a time.
    private final ThreadLocal<TaskBinding> threads;

    public LiveSlotBinder(ThreadBinder binder)
    {
        this.binder = requireNonNull(binder, "binder is null").keepingOwnState();
        this.threads = ThreadLocal.withInitial(() -> new TaskBinding(this.binder.currentThread()));
    }

    @Override
    public PreparedAffinity prepare(CpuSet cpus, OptionalInt memoryNode)
    {
        return binder.prepare(cpus, SlotBinder.preferred(memoryNode));
    }

    @Override
    public Binding bind(PreparedAffinity target)
    {
        TaskBinding thread = threads.get();
        thread.bound.bind(target);
        return thread;
    }

    @Override
    public void follow(CpuSet nowAllowed)
    {
        binder.follow(nowAllowed);
    }

    @Override
    public void move(int tid, PreparedAffinity target)
    {
        // false: ended meanwhile; its next task is placed on the new plan anyway.
        binder.move(tid, target);
    }

    private record TaskBinding(BoundThread bound)
            implements Binding
    {
        @Override
        public int tid()
        {
            return bound.tid();
        }

        @Override
        public void restore()
        {
            bound.restore();
        }
    }
}
