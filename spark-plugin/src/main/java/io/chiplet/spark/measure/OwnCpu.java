package io.chiplet.spark.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plugin's own CPU time in this JVM, read from the JVM: its threads' (those named {@code chiplet-*}) from
 * {@link ThreadMXBean}, plus the CPU time its hooks spent on task threads, each hook measured by the thread's own CPU
 * clock around it. Where the JVM cannot read thread CPU time, hooks count 0 and the figure says only the threads'.
 */
public final class OwnCpu
{
    private static final String THREAD_PREFIX = "chiplet-";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean supported = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeSupported();
    private final LongAdder hookNanos = new LongAdder();
    // Threads of ours that ended: their time stays counted.
    private final java.util.Map<Long, Long> lastSeen = new java.util.concurrent.ConcurrentHashMap<>();

    /** This thread's CPU clock, for {@link #hookEnded}; 0 where unsupported. */
    public long hookStarted()
    {
        return supported ? threads.getCurrentThreadCpuTime() : 0;
    }

    public void hookEnded(long startedAt)
    {
        if (supported) {
            hookNanos.add(Math.max(0, threads.getCurrentThreadCpuTime() - startedAt));
        }
    }

    /** The hooks' CPU time so far, in nanoseconds: where another JVM-wide count (an executor's in local mode) has the threads. */
    public long hookNanos()
    {
        return hookNanos.sum();
    }

    /** The hooks' and the plugin's threads' CPU time so far, in nanoseconds. */
    public long nanos()
    {
        if (!supported) {
            return 0;
        }
        long[] ids = threads.getAllThreadIds();
        for (ThreadInfo info : threads.getThreadInfo(ids)) {
            if (info != null && info.getThreadName().startsWith(THREAD_PREFIX)) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu > 0) {
                    lastSeen.merge(info.getThreadId(), cpu, Math::max);
                }
            }
        }
        return hookNanos.sum() + lastSeen.values().stream().mapToLong(Long::longValue).sum();
    }
}
