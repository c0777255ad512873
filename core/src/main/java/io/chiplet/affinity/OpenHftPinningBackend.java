package io.chiplet.affinity;

import com.sun.jna.LastErrorException;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.topology.CpuSet;
import net.openhft.affinity.Affinity;
import net.openhft.affinity.impl.LinuxHelper;

/**
 * Pinning through OpenHFT Java-Thread-Affinity (JNA). It can set any thread's mask by tid but read back only the
 * calling thread's; other threads are read from {@code /proc/self/task/<tid>/status}. OpenHFT reports failures
 * as JNA exceptions, which this backend turns into {@link NativeCallException}s carrying the errno, as FFM's.
 */
final class OpenHftPinningBackend
        implements PinningBackend
{
    @Override
    public String name()
    {
        return "openhft";
    }

    @Override
    public int currentThreadId()
    {
        return Affinity.getThreadId();
    }

    @Override
    public CpuSet getAffinity(int tid)
    {
        if (tid == 0 || tid == Affinity.getThreadId()) {
            return CpuSet.fromBitSet(Affinity.getAffinity());
        }
        return ThreadId.cpusAllowed(tid)
                .orElseThrow(() -> new IllegalArgumentException("thread " + tid + " is not a thread of this process (it may have ended)"));
    }

    @Override
    public void setAffinity(int tid, CpuSet cpus)
    {
        try {
            if (tid == 0) {
                Affinity.setAffinity(cpus.toBitSet());
            }
            else {
                LinuxHelper.sched_setaffinity(tid, cpus.toBitSet());
            }
        }
        catch (RuntimeException e) {
            // OpenHFT wraps JNA's LastErrorException; surface its errno like the FFM backend does.
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof LastErrorException lastError) {
                    NativeCallException failure = new NativeCallException("sched_setaffinity", new Object[] {"tid " + tid, "cpus " + cpus.toList(), "via openhft"},
                            lastError.getErrorCode());
                    failure.initCause(e);
                    throw failure;
                }
            }
            throw new IllegalStateException("openhft sched_setaffinity(tid " + tid + ", cpus " + cpus.toList() + ") failed: " + e.getMessage(), e);
        }
    }
}
