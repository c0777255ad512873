package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;

import static java.util.Objects.requireNonNull;

/**
 * Pins threads of this process to CPUs and reads their masks back. Every pin is checked against the CPUs this
 * process may use first (see {@link AllowedCpus}), so a wrong CPU is named in the error instead of being silently
 * dropped by the kernel.
 */
public final class ThreadAffinity
{
    private final PinningBackend backend;
    private final AllowedCpus allowed;

    public ThreadAffinity(PinningBackend backend, AllowedCpus allowed)
    {
        this.backend = requireNonNull(backend, "backend is null");
        this.allowed = requireNonNull(allowed, "allowed is null");
    }

    /** The FFM backend and this machine's allowed CPUs. */
    public static ThreadAffinity live()
    {
        return live("ffm");
    }

    /** The named backend ({@code ffm} or {@code openhft}) and this machine's allowed CPUs. */
    public static ThreadAffinity live(String backend)
    {
        if (!NativeAccess.isLinux()) {
            throw new UnsupportedOperationException("thread pinning needs Linux; this is " + System.getProperty("os.name"));
        }
        return new ThreadAffinity(PinningBackend.fromName(backend), AllowedCpus.live());
    }

    public PinningBackend backend()
    {
        return backend;
    }

    public AllowedCpus allowed()
    {
        return allowed;
    }

    /** Pins the calling thread to {@code cpus}; closing the result restores its previous mask. */
    public PinnedThread pinCurrentThread(CpuSet cpus)
    {
        // tid 0 is "the calling thread" to the kernel: no lookup of our own tid on the way in.
        return pin(backend.currentThreadId(), 0, cpus);
    }

    /**
     * Pins thread {@code tid} of this process to {@code cpus}; closing the result restores its previous mask.
     *
     * @throws IllegalArgumentException when a CPU is not allowed, or the thread is not one of this process
     */
    public PinnedThread pinThread(int tid, CpuSet cpus)
    {
        if (tid <= 0) {
            throw new IllegalArgumentException("expected a Linux thread id above 0 but found " + tid);
        }
        if (!ThreadId.isThreadOfThisProcess(tid)) {
            throw new IllegalArgumentException("thread " + tid + " is not a thread of this process (no /proc/self/task/" + tid + ")");
        }
        return pin(tid, tid, cpus);
    }

    /** Thread {@code tid}'s current mask. */
    public CpuSet affinityOf(int tid)
    {
        return backend.getAffinity(tid);
    }

    /** The calling thread's current mask. */
    public CpuSet currentAffinity()
    {
        return backend.getAffinity(0);
    }

    /** {@code target} is what the syscalls are given: {@code tid}, or 0 for the calling thread. */
    private PinnedThread pin(int tid, int target, CpuSet cpus)
    {
        requireNonNull(cpus, "cpus is null");
        allowed.check(cpus);
        CpuSet previous;
        try {
            previous = backend.getAffinity(target);
            backend.setAffinity(target, cpus);
        }
        catch (NativeCallException e) {
            throw explain(e, tid, cpus);
        }
        return new PinnedThread(backend, tid, target == 0 ? Thread.currentThread() : null, previous, cpus);
    }

    private RuntimeException explain(NativeCallException e, int tid, CpuSet cpus)
    {
        return switch (e.errno()) {
            // The allowed set changed under us (CPU hot-unplug, cpuset rewritten), or our reading of it was wrong.
            case Errno.EINVAL -> new IllegalArgumentException("cannot pin thread " + tid + " to CPUs " + cpus.toList()
                    + ": the kernel allows none of them for this process now (allowed when checked: " + allowed.allowed().toList()
                    + "; a CPU went offline or the cgroup cpuset changed) [" + e.getMessage() + "]", e);
            case Errno.ESRCH -> new IllegalArgumentException("cannot pin thread " + tid + ": no such thread in this process (it may have ended) ["
                    + e.getMessage() + "]", e);
            case Errno.EPERM -> new IllegalArgumentException("cannot pin thread " + tid + ": not permitted (another user's thread, or "
                    + "CAP_SYS_NICE missing) [" + e.getMessage() + "]", e);
            default -> e;
        };
    }
}
