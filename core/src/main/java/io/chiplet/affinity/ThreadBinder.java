package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The binding API the engines' plugins use: binds the calling thread to CPUs and, optionally, a NUMA memory policy,
 * and gives it back what it had. A {@link Target} is checked against the CPUs this process may use and put into the
 * kernel's form once, when the plan is made; binding and restoring then pass those words to the syscalls as they are,
 * and save the thread's own mask and policy into words its {@link BoundThread} keeps for the thread's life: nothing is
 * allocated or converted per bind, so a pin and restore costs what its syscalls cost (docs/native.md).
 *
 * <p>A bind makes one call per part it changes and reads what it replaces first (two for the CPUs, two more with a
 * memory policy); a restore one per part. A thread is bound to one target at a time.
 */
public final class ThreadBinder
{
    private final PinningBackend backend;
    private final AllowedCpus allowed;
    // One per thread, reused by each of its binds: a thread-confined cache, not shared state.
    private final ThreadLocal<BoundThread> threads;

    public ThreadBinder(PinningBackend backend, AllowedCpus allowed)
    {
        this.backend = requireNonNull(backend, "backend is null");
        this.allowed = requireNonNull(allowed, "allowed is null");
        this.threads = ThreadLocal.withInitial(() -> new BoundThread(this.backend, 0));
    }

    /** The named pinning backend ({@code ffm} or {@code openhft}) and this process's allowed CPUs now. */
    public static ThreadBinder live(String backend)
    {
        ThreadAffinity affinity = ThreadAffinity.live(backend);
        return new ThreadBinder(affinity.backend(), affinity.allowed());
    }

    public PinningBackend backend()
    {
        return backend;
    }

    public AllowedCpus allowed()
    {
        return allowed;
    }

    /**
     * {@code cpus}, and {@code memory} when present, ready to bind threads to.
     *
     * @throws IllegalArgumentException naming the CPUs this process may not use
     */
    public Target target(CpuSet cpus, Optional<MemoryPolicy> memory)
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(memory, "memory is null");
        allowed.check(cpus);
        return new Target(cpus, memory);
    }

    /**
     * Binds the calling thread to {@code target}; {@link BoundThread#restore()} (or {@code close}) gives it back its
     * mask and memory policy of before. The result is this thread's own, the same object every time.
     *
     * @throws IllegalStateException when the thread is bound already (its previous binding was not restored)
     * @throws IllegalArgumentException when the kernel refuses the CPUs (the allowed CPUs changed since the target was made)
     */
    public BoundThread bindCurrentThread(Target target)
    {
        requireNonNull(target, "target is null");
        BoundThread thread = threads.get();
        thread.bind(target);
        return thread;
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
        return new BoundThread(backend, tid);
    }

    /** CPUs and an optional memory policy in the kernel's form. Immutable. */
    public static final class Target
    {
        private final CpuSet cpus;
        private final long[] cpuWords;
        private final Optional<MemoryPolicy> memory;
        private final int memoryMode;
        private final long[] nodeWords;

        private Target(CpuSet cpus, Optional<MemoryPolicy> memory)
        {
            this.cpus = cpus;
            this.cpuWords = CpuMaskWords.of(cpus);
            this.memory = memory;
            this.memoryMode = memory.map(policy -> policy.mode().value()).orElse(0);
            long[] nodes = new long[memory.map(policy -> policy.nodes().isEmpty() ? 0 : policy.nodes().last() / 64 + 1).orElse(0)];
            memory.ifPresent(policy -> policy.nodes().forEach(node -> nodes[node >>> 6] |= 1L << (node & 63)));
            this.nodeWords = nodes;
        }

        public CpuSet cpus()
        {
            return cpus;
        }

        public Optional<MemoryPolicy> memory()
        {
            return memory;
        }

        @Override
        public String toString()
        {
            return "CPUs " + cpus.toList() + memory.map(policy -> ", memory " + policy).orElse("");
        }
    }

    /**
     * A thread's binding: what it had before (its mask and memory policy, in the kernel's form), restored by
     * {@link #restore()}. The calling thread's ({@link #bindCurrentThread}) is confined to it; another thread's
     * ({@link #thread}) to the thread that manages it. Restoring twice restores once.
     */
    public static final class BoundThread
            implements AutoCloseable
    {
        private final PinningBackend backend;
        // what the syscalls are given: the thread's id, or 0 for the calling thread
        private final int tid;
        private final long[] ownCpus = new long[CpuMaskWords.MAX_WORDS];
        private final long[] ownNodes = new long[MempolicySyscalls.MAX_NODES / 64];
        private int ownCpuWords;
        private int ownMemoryMode;
        private boolean memoryBound;
        private boolean bound;

        private BoundThread(PinningBackend backend, int tid)
        {
            this.backend = backend;
            this.tid = tid;
        }

        /**
         * Binds this thread to {@code target}, as {@link ThreadBinder#bindCurrentThread} does.
         *
         * @throws IllegalArgumentException when {@code target} has a memory policy and this is not the calling thread's
         *         binding, or the kernel refuses the CPUs ({@code ESRCH}: the thread has ended)
         */
        public void bind(Target target)
        {
            requireNonNull(target, "target is null");
            if (bound) {
                throw new IllegalStateException("thread " + (tid == 0 ? "" : tid + " ") + "is bound already: its previous binding was not restored");
            }
            if (tid != 0 && target.memory.isPresent()) {
                throw new IllegalArgumentException("a memory policy binds the calling thread only, not thread " + tid);
            }
            try {
                // tid 0: the calling thread, no lookup of its id.
                ownCpuWords = backend.getAffinity(tid, ownCpus);
                backend.setAffinity(tid, target.cpuWords, target.cpuWords.length);
            }
            catch (NativeCallException e) {
                throw switch (e.errno()) {
                    case Errno.EINVAL -> new IllegalArgumentException("cannot bind to CPUs " + target.cpus.toList() + ": the kernel allows none of them for this "
                            + "process now (a CPU went offline or the cgroup cpuset changed) [" + e.getMessage() + "]", e);
                    case Errno.ESRCH -> new IllegalArgumentException("cannot bind thread " + tid + ": it has ended [" + e.getMessage() + "]", e);
                    default -> e;
                };
            }
            if (target.memory.isPresent()) {
                try {
                    ownMemoryMode = MempolicySyscalls.getMempolicy(ownNodes);
                    MempolicySyscalls.setMempolicy(target.memoryMode, target.nodeWords, target.nodeWords.length);
                }
                catch (RuntimeException e) {
                    backend.setAffinity(tid, ownCpus, ownCpuWords);
                    throw e;
                }
            }
            memoryBound = target.memory.isPresent();
            bound = true;
        }

        /** Gives the thread back the mask and memory policy it had before it was bound. */
        public void restore()
        {
            if (!bound) {
                return;
            }
            bound = false;
            try {
                if (memoryBound) {
                    MempolicySyscalls.setMempolicy(ownMemoryMode, ownNodes, ownNodes.length);
                }
            }
            finally {
                try {
                    backend.setAffinity(tid, ownCpus, ownCpuWords);
                }
                catch (NativeCallException e) {
                    // A managed thread that has ended has nothing left to restore.
                    if (tid == 0 || e.errno() != Errno.ESRCH) {
                        throw e;
                    }
                }
            }
        }

        @Override
        public void close()
        {
            restore();
        }
    }
}
