package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;

import static java.util.Objects.requireNonNull;

/**
 * A thread pinned by {@link ThreadAffinity}; {@link #close()} gives it back the mask it had before. Closing twice
 * restores once. Restoring a thread that has since ended is not an error.
 */
public final class PinnedThread
        implements AutoCloseable
{
    private final PinningBackend backend;
    private final int tid;
    // The thread that pinned itself, when it did: closing on that thread restores through tid 0, no lookup.
    private final Thread self;
    private final CpuSet previous;
    private final CpuSet pinned;
    private boolean closed;

    PinnedThread(PinningBackend backend, int tid, Thread self, CpuSet previous, CpuSet pinned)
    {
        this.backend = requireNonNull(backend, "backend is null");
        this.tid = tid;
        this.self = self;
        this.previous = requireNonNull(previous, "previous is null");
        this.pinned = requireNonNull(pinned, "pinned is null");
    }

    /** The Linux thread id pinned. */
    public int tid()
    {
        return tid;
    }

    /** The mask the thread had before, which {@link #close()} restores. */
    public CpuSet previous()
    {
        return previous;
    }

    /** The mask the thread was pinned to. */
    public CpuSet pinned()
    {
        return pinned;
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        try {
            backend.setAffinity(Thread.currentThread() == self ? 0 : tid, previous);
        }
        catch (NativeCallException e) {
            if (e.errno() != Errno.ESRCH) {
                throw e;
            }
            // The thread ended: nothing left to restore.
        }
    }

    @Override
    public String toString()
    {
        return "thread " + tid + " pinned to " + pinned.toList() + " (was " + previous.toList() + ")";
    }
}
