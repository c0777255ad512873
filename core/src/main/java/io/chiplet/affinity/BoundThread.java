package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A thread's binding: what it had before (its mask and memory policy, in the kernel's form), restored by
 * {@link #restore()}. The calling thread's ({@link ThreadBinder#bindCurrentThread}) is confined to it; another thread's
 * ({@link ThreadBinder#thread}) to the thread that manages it. Restoring twice restores once.
 */
public final class BoundThread
        implements AutoCloseable
{
    private final PinningBackend backend;
    // whether a calling thread's own mask and policy are read at its first bind only (ThreadBinder.keepingOwnState)
    private final boolean keepOwn;
    // the binder's CPU limit now: replaced by each ThreadBinder.follow
    private final Supplier<CpuLimit> limit;
    // what the syscalls are given: the thread's id, or 0 for the calling thread
    private final int tid;
    // the calling thread's Linux id, asked when first wanted (a pin needs none)
    private int threadId;
    private final long[] ownCpus = new long[CpuMaskWords.MAX_WORDS];
    private final long[] restoreCpus = new long[CpuMaskWords.MAX_WORDS];
    private final long[] ownNodes = new long[MempolicySyscalls.MAX_NODES / 64];
    private int ownCpuWords;
    // the limit generation ownCpus was read under; -1 before the first read
    private int ownGeneration = -1;
    private boolean ownMemoryRead;
    private int ownMemoryMode;
    private boolean pinned;
    private boolean memoryBound;
    private boolean bound;

    BoundThread(PinningBackend backend, boolean keepOwn, Supplier<CpuLimit> limit, int tid)
    {
        this.backend = backend;
        this.keepOwn = keepOwn;
        this.limit = limit;
        this.tid = tid;
        this.threadId = tid;
    }

    /** The bound thread's Linux thread id (an engine's adaptive controller watches its counters); ask it on that thread. */
    public int tid()
    {
        if (threadId == 0) {
            threadId = backend.currentThreadId();
        }
        return threadId;
    }

    public boolean isBound()
    {
        return bound;
    }

    /**
     * Binds this thread to {@code target}, as {@link ThreadBinder#bindCurrentThread} does.
     *
     * @throws IllegalArgumentException when {@code target} has a memory policy and this is not the calling thread's
     *         binding, or the kernel refuses the CPUs ({@code ESRCH}: the thread has ended)
     */
    public void bind(PreparedAffinity target)
    {
        requireNonNull(target, "target is null");
        if (bound) {
            throw new IllegalStateException("thread " + (tid == 0 ? "" : tid + " ") + "is bound already: its previous binding was not restored");
        }
        if (tid != 0 && target.memory().isPresent()) {
            throw new IllegalArgumentException("a memory policy binds the calling thread only, not thread " + tid);
        }
        boolean keep = keepOwn && tid == 0;
        int generation = limit.get().generation();
        try {
            if (!keep || ownGeneration != generation) {
                // tid 0: the calling thread, no lookup of its id.
                ownCpuWords = backend.getAffinity(tid, ownCpus);
                ownGeneration = generation;
            }
            // A target that is the thread's whole mask already (one chiplet on the machine) needs no call.
            pinned = !CpuMaskWords.same(target.cpuWords(), target.cpuWords().length, ownCpus, ownCpuWords);
            if (pinned) {
                backend.setAffinity(tid, target.cpuWords(), target.cpuWords().length);
            }
        }
        catch (NativeCallException e) {
            throw target.refusal(e, tid);
        }
        if (target.memory().isPresent()) {
            try {
                if (!keep || !ownMemoryRead) {
                    ownMemoryMode = MempolicySyscalls.getMempolicy(ownNodes);
                    ownMemoryRead = true;
                }
                MempolicySyscalls.setMempolicy(target.memoryMode(), target.nodeWords(), target.nodeWords().length);
            }
            catch (RuntimeException e) {
                if (pinned) {
                    restoreCpus();
                }
                throw e;
            }
        }
        memoryBound = target.memory().isPresent();
        bound = true;
    }

    /**
     * Moves this bound thread to {@code target}'s CPUs: one call; {@link #restore()} still gives back what it had
     * before its bind (Trino's agent moves a placed thread to another chiplet).
     *
     * @throws IllegalStateException when the thread is not bound
     * @throws IllegalArgumentException when {@code target} has a memory policy, or the kernel refuses the CPUs
     *         ({@code ESRCH}: the thread has ended)
     */
    public void rebind(PreparedAffinity target)
    {
        requireNonNull(target, "target is null");
        if (!bound) {
            throw new IllegalStateException("thread " + (tid == 0 ? "" : tid + " ") + "is not bound: bind it first");
        }
        if (target.memory().isPresent()) {
            throw new IllegalArgumentException("a rebind moves the CPUs only, not the memory policy");
        }
        try {
            backend.setAffinity(tid, target.cpuWords(), target.cpuWords().length);
        }
        catch (NativeCallException e) {
            throw target.refusal(e, tid);
        }
        pinned = true;
    }

    /**
     * Gives the thread back the mask and memory policy it had before it was bound; after a {@link ThreadBinder#follow}, its
     * mask within the CPUs allowed now.
     */
    public void restore()
    {
        if (!bound) {
            return;
        }
        bound = false;
        try {
            if (memoryBound) {
                memoryBound = false;
                MempolicySyscalls.setMempolicy(ownMemoryMode, ownNodes, ownNodes.length);
            }
        }
        finally {
            // Moved by a cpuset change since its bind: its mask is no longer the one it was bound to.
            if (pinned || ownGeneration != limit.get().generation()) {
                pinned = false;
                restoreCpus();
            }
        }
    }

    private void restoreCpus()
    {
        long[] words = ownCpus;
        int count = ownCpuWords;
        long[] limitWords = limit.get().words();
        if (limitWords != null) {
            // Its own mask within what the process may use now, or all of that where none of its own is left.
            count = CpuMaskWords.intersect(ownCpus, ownCpuWords, limitWords, limitWords.length, restoreCpus);
            words = count == 0 ? limitWords : restoreCpus;
            count = count == 0 ? limitWords.length : count;
        }
        try {
            backend.setAffinity(tid, words, count);
        }
        catch (NativeCallException e) {
            // A managed thread that has ended has nothing left to restore.
            if (tid == 0 || e.errno() != Errno.ESRCH) {
                throw e;
            }
        }
    }

    @Override
    public void close()
    {
        restore();
    }
}
