package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The one binding API, which the engines' plugins, the CLI and the JMH harness use: binds the calling thread to CPUs
 * and, optionally, a NUMA memory policy, another thread of this process ({@link #thread}) or every thread of it
 * ({@link #bindProcess}) to CPUs, and gives each back what it had (the vocabulary: {@code io.chiplet.affinity}'s
 * package-info). A {@link PreparedAffinity} is checked against the CPUs this process may use and put into the
 * kernel's form once, when the plan is made; binding and restoring then pass those words to the syscalls as they are,
 * and save the thread's own mask and policy into words its {@link BoundThread} keeps for the thread's life: nothing is
 * allocated or converted per bind, so a pin and restore costs what its syscalls cost (docs/native.md).
 *
 * <p>A bind makes one call per part it changes and reads what it replaces first (two for the CPUs, two more with a
 * memory policy); a restore one per part. A bind to the CPUs the thread has already sets none. A thread is bound to
 * one target at a time.
 *
 * <p>A binder {@link #keepingOwnState() keeping each thread's own state} reads it at the thread's first bind only: for
 * threads only it changes between binds (an engine's task threads), where reading again per bind would be two
 * syscalls for no information. When the process's allowed CPUs change, {@link #follow} has threads restored within
 * the new ones (and their kept masks read again at their next bind).
 */
public final class ThreadBinder
{
    private final PinningBackend backend;
    private final boolean keepOwn;
    // The allowed CPUs as of the latest cpuset change: targets are checked against them, threads restored within them.
    private volatile CpuLimit limit;
    // One per thread, reused by each of its binds: a thread-confined cache, not shared state.
    private final ThreadLocal<BoundThread> threads;

    public ThreadBinder(PinningBackend backend, PinnableCpus allowed)
    {
        this(backend, new CpuLimit(requireNonNull(allowed, "allowed is null"), null, 0), false);
    }

    private ThreadBinder(PinningBackend backend, CpuLimit limit, boolean keepOwn)
    {
        this.backend = requireNonNull(backend, "backend is null");
        this.limit = limit;
        this.keepOwn = keepOwn;
        this.threads = ThreadLocal.withInitial(() -> new BoundThread(this.backend, keepOwn, () -> this.limit, 0));
    }

    /** The {@code ffm} pinning backend (our own syscalls, through this JVM's native path) and this process's allowed CPUs now. */
    public static ThreadBinder live()
    {
        return live("ffm");
    }

    /**
     * The named pinning backend ({@code ffm} or {@code openhft}) and this process's allowed CPUs now.
     *
     * @throws UnsupportedOperationException when this is not Linux
     * @throws IllegalArgumentException naming an unknown backend
     */
    public static ThreadBinder live(String backend)
    {
        if (!NativeAccess.isLinux()) {
            throw new UnsupportedOperationException("thread pinning needs Linux; this is " + System.getProperty("os.name"));
        }
        return new ThreadBinder(PinningBackend.fromName(backend), PinnableCpus.live());
    }

    /**
     * A binder with this one's backend and allowed CPUs that reads a calling thread's own mask and memory policy at its
     * first bind only and keeps them (its mask again after a {@link #follow}), for threads nothing else changes
     * between binds: an engine's task threads, which the plugin restores at each task's end. A mask changed from
     * outside between two binds ({@code taskset -p} on one thread) is not noticed: the next restore gives back the
     * kept one. Another thread's binding ({@link #thread}) reads per bind as ever.
     */
    public ThreadBinder keepingOwnState()
    {
        return new ThreadBinder(backend, limit, true);
    }

    public PinningBackend backend()
    {
        return backend;
    }

    /** The CPUs targets are checked against: as at start, or as the latest {@link #follow} gave them. */
    public PinnableCpus pinnable()
    {
        return limit.pinnable();
    }

    /**
     * {@code cpus}, and {@code memory} when present, ready to bind threads to.
     *
     * @throws IllegalArgumentException naming the CPUs this process may not use
     */
    public PreparedAffinity prepare(CpuSet cpus, Optional<MemoryPolicy> memory)
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(memory, "memory is null");
        limit.pinnable().check(cpus);
        return new PreparedAffinity(cpus, memory);
    }

    /**
     * The process's allowed CPUs changed to {@code nowAllowed} (a cgroup cpuset rewritten, {@code taskset} of the
     * process): later targets are checked against them, every restore from now on gives a thread its own mask within
     * them (or all of them where none of its own is left; the kernel refuses a mask with no allowed CPU), and kept
     * masks are read again at each thread's next bind. Running threads stay where they are: {@link #move} them.
     *
     * @throws IllegalArgumentException when {@code nowAllowed} is empty
     */
    public synchronized void follow(CpuSet nowAllowed)
    {
        requireNonNull(nowAllowed, "nowAllowed is null");
        if (nowAllowed.isEmpty()) {
            throw new IllegalArgumentException("the allowed CPUs cannot become empty");
        }
        CpuLimit before = limit;
        PinnableCpus allowed = new PinnableCpus(before.pinnable().present(), before.pinnable().online(), nowAllowed);
        limit = new CpuLimit(allowed, CpuMaskWords.of(nowAllowed), before.generation() + 1);
    }

    /**
     * Moves thread {@code tid} of this process, bound by itself, to {@code target}'s CPUs (a running task's thread to
     * its slot's CPUs after {@link #follow}); its binding still restores what the thread had before it. One call,
     * CPUs only.
     *
     * @return false when the thread has ended
     * @throws IllegalArgumentException when the kernel refuses the CPUs
     */
    public boolean move(int tid, PreparedAffinity target)
    {
        requireNonNull(target, "target is null");
        if (tid <= 0) {
            throw new IllegalArgumentException("expected a Linux thread id above 0 but found " + tid);
        }
        try {
            backend.setAffinity(tid, target.cpuWords(), target.cpuWords().length);
            return true;
        }
        catch (NativeCallException e) {
            if (e.errno() == Errno.ESRCH) {
                return false;
            }
            throw target.refusal(e, tid);
        }
    }

    /**
     * Binds the calling thread to {@code target}; {@link BoundThread#restore()} (or {@code close}) gives it back its
     * mask and memory policy of before. The result is this thread's own, the same object every time.
     *
     * @throws IllegalStateException when the thread is bound already (its previous binding was not restored)
     * @throws IllegalArgumentException when the kernel refuses the CPUs (the allowed CPUs changed since the target was made)
     */
    public BoundThread bindCurrentThread(PreparedAffinity target)
    {
        requireNonNull(target, "target is null");
        BoundThread thread = threads.get();
        thread.bind(target);
        return thread;
    }

    /**
     * The calling thread's binding, bound or not: the object {@link #bindCurrentThread} binds, for an adapter that
     * keeps it with the thread.
     */
    public BoundThread currentThread()
    {
        return threads.get();
    }

    /**
     * Binds every thread of this process to {@code target}'s CPUs (Spark's executor mode: the whole executor on one
     * chiplet); {@link BoundProcess#restore()} gives them back. CPUs only: a memory policy is set by a thread on itself
     * ({@link #bindCurrentThread}), and threads it creates later inherit it.
     *
     * @throws IllegalArgumentException when {@code target} has a memory policy, or the kernel refuses the CPUs
     * @throws IllegalStateException when threads keep appearing faster than they can be bound
     */
    public BoundProcess bindProcess(PreparedAffinity target)
    {
        requireNonNull(target, "target is null");
        if (target.memory().isPresent()) {
            throw new IllegalArgumentException("a process binding sets the CPUs only: bind the memory policy on the thread that creates the others");
        }
        return BoundProcess.bind(backend, this::thread, target);
    }

    /**
     * The calling thread's CPU mask as the kernel has it now, read through this binder's backend.
     *
     * @throws io.chiplet.nativeio.NativeCallException when the kernel refuses
     */
    public CpuSet currentMask()
    {
        return backend.getAffinity(0);
    }

    /**
     * Thread {@code tid}'s CPU mask as the kernel has it now, read through this binder's backend ({@code tid} a thread
     * of this process, as {@link ThreadId#threadsOfThisProcess} lists them).
     *
     * @throws IllegalArgumentException when there is no such thread (it may have ended)
     */
    public CpuSet maskOf(int tid)
    {
        if (tid <= 0) {
            throw new IllegalArgumentException("expected a Linux thread id above 0 but found " + tid);
        }
        try {
            return backend.getAffinity(tid);
        }
        catch (NativeCallException e) {
            if (e.errno() == Errno.ESRCH) {
                throw new IllegalArgumentException("thread " + tid + " is not a thread of this process (it may have ended) [" + e.getMessage() + "]", e);
            }
            throw e;
        }
    }

    /**
     * Another thread of this process, by Linux thread id, to bind and restore from whichever thread manages it (Trino's
     * placement agent places the query threads it finds). Keep the result for as long as the thread is managed: each
     * bind reuses it. Only its CPUs can be bound this way: a memory policy applies to the calling thread only.
     *
     * @throws IllegalArgumentException when {@code tid} is not a thread of this process
     */
    public BoundThread thread(int tid)
    {
        if (tid <= 0) {
            throw new IllegalArgumentException("expected a Linux thread id above 0 but found " + tid);
        }
        if (!ThreadId.isThreadOfThisProcess(tid)) {
            throw new IllegalArgumentException("thread " + tid + " is not a thread of this process (no /proc/self/task/" + tid + ")");
        }
        return new BoundThread(backend, false, () -> limit, tid);
    }
}
