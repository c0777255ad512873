package io.chiplet.spark.placement;

import io.chiplet.affinity.AllowedCpus;
import io.chiplet.affinity.MempolicySyscalls;
import io.chiplet.affinity.PinningBackend;
import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.topology.CpuSet;

import java.util.BitSet;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * Pins through the configured {@link PinningBackend} ({@code sched_setaffinity}) and sets the memory policy with
 * {@code set_mempolicy}: one call to bind, one to restore, and with a node one more each; none where the slot is the
 * thread's whole mask already. Nothing is allocated.
 *
 * <p>Why so few calls: the plan's CPUs are checked against the process's allowed CPUs once ({@link #check}), not per
 * task; and a task thread's own mask, memory policy and thread id are read once, on its first task, and kept with the
 * thread. Between two tasks the plugin is the last to have set them (it restored them at the end of the previous
 * task), so they are what the thread has: reading them again per task would be two syscalls for no information. A
 * thread's mask changed from outside between two of its tasks ({@code taskset -p} on an executor thread) is therefore
 * not noticed: the end of its next task restores the mask it had at its first.
 *
 * <p>The policy is {@code MPOL_PREFERRED}, not {@code MPOL_BIND}: the executor's heap is shared by all its tasks, and a
 * task thread whose node runs out of memory must spill to another node rather than push the JVM into the OOM killer.
 * Mode flags of the previous policy ({@code MPOL_F_STATIC_NODES} and the like) are not restored: the kernel does not
 * report them back, and executor threads do not use them.
 */
final class LiveThreadBinder
        implements ThreadBinder
{
    private final PinningBackend backend;
    private final AllowedCpus allowed;
    // The CPUs the process may use now; a task thread's own mask is given back within them.
    private final AtomicReference<CpuSet> limit;
    // Bumped by each cpuset change: a thread's cached own mask from before it is read again (the change rewrote it).
    private volatile int generation;
    // One node mask per node id, made once: set_mempolicy reads the mask, never keeps it.
    private final BitSet[] nodeMasks;
    // One per task thread, reused as the binding of each of its tasks: a thread runs one task at a time.
    private final ThreadLocal<ThreadState> threads = ThreadLocal.withInitial(this::readThread);

    LiveThreadBinder(ThreadAffinity affinity, int maxNode)
    {
        requireNonNull(affinity, "affinity is null");
        this.backend = affinity.backend();
        this.allowed = affinity.allowed();
        this.limit = new AtomicReference<>(allowed.allowed());
        this.nodeMasks = new BitSet[maxNode + 1];
        for (int node = 0; node <= maxNode; node++) {
            BitSet mask = new BitSet();
            mask.set(node);
            nodeMasks[node] = mask;
        }
    }

    @Override
    public void check(CpuSet cpus)
    {
        allowed.check(cpus);
    }

    @Override
    public void follow(CpuSet nowAllowed, Map<Integer, CpuSet> runningThreads)
    {
        limit.set(nowAllowed);
        generation++;
        runningThreads.forEach((tid, cpus) -> {
            try {
                backend.setAffinity(tid, cpus);
            }
            catch (RuntimeException e) {
                // Ended meanwhile (ESRCH): its next task is placed on the new plan anyway.
            }
        });
    }

    @Override
    public Binding bind(CpuSet cpus, OptionalInt memoryNode)
    {
        ThreadState thread = threads.get();
        int now = generation;
        if (thread.generation != now && !thread.bound) {
            thread.mask = backend.getAffinity(0);
            thread.generation = now;
        }
        if (thread.bound) {
            throw new IllegalStateException("thread " + thread.tid + " is bound already: a task started before the previous one ended");
        }
        // A slot that is the whole of what the thread may use already (one chiplet on the machine) needs no call.
        thread.pinned = !cpus.equals(thread.mask);
        if (thread.pinned) {
            // tid 0: the calling thread, no lookup.
            backend.setAffinity(0, cpus);
        }
        thread.memoryBound = false;
        if (memoryNode.isPresent()) {
            try {
                if (thread.memoryNodes == null) {
                    MempolicySyscalls.Policy own = MempolicySyscalls.getMempolicy();
                    thread.memoryMode = own.mode();
                    thread.memoryNodes = own.nodes();
                }
                MempolicySyscalls.setMempolicy(MempolicySyscalls.MPOL_PREFERRED, nodeMasks[memoryNode.getAsInt()]);
                thread.memoryBound = true;
            }
            catch (RuntimeException e) {
                if (thread.pinned) {
                    backend.setAffinity(0, thread.mask);
                }
                throw e;
            }
        }
        thread.bound = true;
        return thread;
    }

    private ThreadState readThread()
    {
        ThreadState thread = new ThreadState(backend, backend.currentThreadId(), backend.getAffinity(0), limit);
        thread.generation = generation;
        return thread;
    }

    /** A task thread's own mask and memory policy, as it had them before its first task. */
    private static final class ThreadState
            implements Binding
    {
        private final PinningBackend backend;
        private final int tid;
        private CpuSet mask;
        private int generation;
        private final AtomicReference<CpuSet> limit;
        private int memoryMode;
        private BitSet memoryNodes;
        private boolean memoryBound;
        private boolean pinned;
        private boolean bound;

        ThreadState(PinningBackend backend, int tid, CpuSet mask, AtomicReference<CpuSet> limit)
        {
            this.backend = backend;
            this.tid = tid;
            this.mask = mask;
            this.limit = limit;
        }

        @Override
        public int tid()
        {
            return tid;
        }

        @Override
        public void restore()
        {
            if (!bound) {
                return;
            }
            bound = false;
            try {
                if (memoryBound) {
                    memoryBound = false;
                    MempolicySyscalls.setMempolicy(memoryMode, memoryNodes);
                }
            }
            finally {
                if (pinned) {
                    pinned = false;
                    // Its own mask, within what the process may use now (the same unless the cpuset changed since).
                    CpuSet own = mask.intersect(limit.get());
                    backend.setAffinity(0, own.isEmpty() ? limit.get() : own);
                }
            }
        }
    }
}
