package io.chiplet.spark.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plugin's own CPU time in this JVM, read from the JVM: its threads' (those named {@code chiplet-*}) from
 * {@link ThreadMXBean}, plus the CPU time its hooks spent on task threads, read from the calling thread's own CPU
 * clock ({@link ThreadMXBean#getCurrentThreadCpuTime}) around one hook call in {@value #SAMPLE_EVERY} on each
 * thread and scaled by {@value #SAMPLE_EVERY} (an unbiased estimate of the hooks' total: which calls are sampled
 * does not depend on what they cost). Reading the clock around every call cost some 300 ns a read on this VM, more
 * than the hooks themselves; one call in {@value #SAMPLE_EVERY} costs some 40 ns a call. A thread waiting for a CPU
 * is not counted (its CPU clock stands still), unlike wall time. Where the JVM cannot read thread CPU time, nothing
 * counts (0).
 */
public final class OwnCpu
{
    private static final String THREAD_PREFIX = "chiplet-";
    /** One hook call in this many, per thread, is timed on the thread's CPU clock. */
    static final int SAMPLE_EVERY = 16;
    /** {@link #hookStarted} for a call that is not timed. */
    private static final long NOT_SAMPLED = Long.MIN_VALUE;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean supported = threads.isThreadCpuTimeSupported() && threads.isCurrentThreadCpuTimeSupported();
    static final int LOOKUP_INTERVAL_CALLS = 20;

    private final LongAdder hookNanos = new LongAdder();
    private final ThreadLocal<int[]> calls = ThreadLocal.withInitial(() -> new int[1]);
    private long lookups;
    // Our threads by id with the last CPU time read: a thread that ended keeps its time counted.
    private final java.util.Map<Long, Long> lastSeen = new java.util.concurrent.ConcurrentHashMap<>();

    /** The thread's CPU clock at a hook's start where this call is sampled, for {@link #hookEnded}. */
    public long hookStarted()
    {
        if (!supported) {
            return NOT_SAMPLED;
        }
        int[] count = calls.get();
        if (++count[0] < SAMPLE_EVERY) {
            return NOT_SAMPLED;
        }
        count[0] = 0;
        long now = threads.getCurrentThreadCpuTime();
        return now < 0 ? NOT_SAMPLED : now;
    }

    public void hookEnded(long startedAt)
    {
        if (startedAt == NOT_SAMPLED) {
            return;
        }
        long now = threads.getCurrentThreadCpuTime();
        if (now >= startedAt) {
            hookNanos.add((now - startedAt) * SAMPLE_EVERY);
        }
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
        if (lookups++ % LOOKUP_INTERVAL_CALLS == 0) {
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
