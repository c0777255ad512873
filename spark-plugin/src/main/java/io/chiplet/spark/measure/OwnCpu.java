package io.chiplet.spark.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plugin's own CPU time in this JVM, read from the JVM: its threads' (those named {@code chiplet-*}) from
 * {@link ThreadMXBean}, plus the time its hooks spent on task threads, each hook timed with {@link System#nanoTime}
 * around it. The hooks never block, so their elapsed time is their CPU time, or more where the thread was preempted
 * (an upper bound); reading the thread's CPU clock instead cost some 300 ns a read on this VM, four reads a task, ten
 * times the hooks' own cost (SparkControlArmBenchmark). Where the JVM cannot read thread CPU time, threads count 0.
 */
public final class OwnCpu
{
    private static final String THREAD_PREFIX = "chiplet-";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean supported = threads.isThreadCpuTimeSupported();
    static final int LOOKUP_INTERVAL_CALLS = 20;

    private final LongAdder hookNanos = new LongAdder();
    private long calls;
    // Our threads by id with the last CPU time read: a thread that ended keeps its time counted.
    private final java.util.Map<Long, Long> lastSeen = new java.util.concurrent.ConcurrentHashMap<>();

    /** The time a hook starts, for {@link #hookEnded}. */
    public long hookStarted()
    {
        return System.nanoTime();
    }

    public void hookEnded(long startedAt)
    {
        hookNanos.add(Math.max(0, System.nanoTime() - startedAt));
    }

    /** The hooks' time so far, in nanoseconds: where another JVM-wide count (an executor's in local mode) has the threads. */
    public long hookNanos()
    {
        return hookNanos.sum();
    }

    /**
     * The hooks' and the plugin's threads' CPU time so far, in nanoseconds. The threads are looked up by name at most
     * every {@value #LOOKUP_INTERVAL_CALLS} calls (listing every thread of an executor costs more than reading a few
     * threads' clocks); a thread started in between is counted from the next lookup on, with all its time.
     */
    public long nanos()
    {
        if (!supported) {
            return 0;
        }
        if (calls++ % LOOKUP_INTERVAL_CALLS == 0) {
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info != null && info.getThreadName().startsWith(THREAD_PREFIX)) {
                    lastSeen.putIfAbsent(info.getThreadId(), 0L);
                }
            }
        }
        for (Long id : lastSeen.keySet()) {
            long cpu = threads.getThreadCpuTime(id);
            if (cpu > 0) {
                lastSeen.merge(id, cpu, Math::max);
            }
        }
        return hookNanos.sum() + lastSeen.values().stream().mapToLong(Long::longValue).sum();
    }
}
