package io.chiplet.spark.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plugin's own CPU time in this JVM, read from the JVM: its threads' (those named {@code chiplet-*}) from
 * {@link ThreadMXBean}, plus the CPU time its hooks spent on task threads, read from the calling thread's own CPU
 * clock ({@link ThreadMXBean#getCurrentThreadCpuTime}) around one hook call in {@value #SAMPLE_EVERY} on each
 * thread and scaled by {@value #SAMPLE_EVERY} (an unbiased estimate of the hooks' total: which calls are sampled
 * does not depend on what they cost). Reading the clock around every call cost some 300 ns a read on this VM, more
 * than the hooks themselves; one call in {@value #SAMPLE_EVERY} costs some 40 ns a call. Work that runs at most a few
 * times a second (the driver's estimate) is timed on every call instead ({@link #exactStarted}), as a part of its own.
 * A thread waiting for a CPU is not counted (its CPU clock stands still), unlike wall time. Where the JVM cannot read
 * thread CPU time, nothing counts (0).
 */
public final class OwnCpu
{
    static final String THREAD_PREFIX = "chiplet-";
    /** One hook call in this many, per thread, is timed on the thread's CPU clock. */
    static final int SAMPLE_EVERY = 16;
    /** {@link #hookStarted} for a call that is not timed. */
    private static final long NOT_SAMPLED = Long.MIN_VALUE;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean supported = threads.isThreadCpuTimeSupported() && threads.isCurrentThreadCpuTimeSupported();
    static final int LOOKUP_INTERVAL_CALLS = 20;

    private record ThreadCpu(String name, long nanos) {}

    private final LongAdder hookNanos = new LongAdder();
    private final LongAdder exactNanos = new LongAdder();
    private final ThreadLocal<int[]> calls = ThreadLocal.withInitial(() -> new int[1]);
    private long lookups;
    // Our threads by id with the last CPU time read: a thread that ended keeps its time counted.
    private final Map<Long, ThreadCpu> lastSeen = new ConcurrentHashMap<>();

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

    /** The thread's CPU clock at the start of work timed on every call, for {@link #exactEnded}. */
    public long exactStarted()
    {
        if (!supported) {
            return NOT_SAMPLED;
        }
        long now = threads.getCurrentThreadCpuTime();
        return now < 0 ? NOT_SAMPLED : now;
    }

    public void exactEnded(long startedAt)
    {
        if (startedAt == NOT_SAMPLED) {
            return;
        }
        long now = threads.getCurrentThreadCpuTime();
        if (now >= startedAt) {
            exactNanos.add(now - startedAt);
        }
    }

    /** The sampled hooks' time so far, in nanoseconds (estimated from one call in {@value #SAMPLE_EVERY}). */
    public long hookNanos()
    {
        return hookNanos.sum();
    }

    /** The time of the work timed on every call ({@link #exactStarted}) so far, in nanoseconds. */
    public long exactNanos()
    {
        return exactNanos.sum();
    }

    /**
     * The hooks', the exactly timed work's and the plugin's threads' CPU time so far, in nanoseconds. The threads are
     * looked up by name at most every {@value #LOOKUP_INTERVAL_CALLS} calls (listing every thread of an executor costs
     * more than reading a few threads' clocks); a thread started in between is counted from the next lookup on, with
     * all its time.
     */
    public long nanos()
    {
        if (!supported) {
            return 0;
        }
        if (lookups++ % LOOKUP_INTERVAL_CALLS == 0) {
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info != null && info.getThreadName().startsWith(THREAD_PREFIX)) {
                    lastSeen.putIfAbsent(info.getThreadId(), new ThreadCpu(info.getThreadName(), 0));
                }
            }
        }
        lastSeen.replaceAll((id, seen) -> {
            long cpu = threads.getThreadCpuTime(id);
            return cpu > seen.nanos() ? new ThreadCpu(seen.name(), cpu) : seen;
        });
        return hookNanos.sum() + exactNanos.sum() + threadNanos();
    }

    /** The plugin's threads' CPU time as last read by {@link #nanos}, in nanoseconds. */
    public long threadNanos()
    {
        return lastSeen.values().stream().mapToLong(ThreadCpu::nanos).sum();
    }

    /** The plugin's threads' CPU time as last read by {@link #nanos}, by thread name (threads of one name summed). */
    public Map<String, Long> threadNanosByName()
    {
        Map<String, Long> byName = new TreeMap<>();
        lastSeen.values().forEach(seen -> byName.merge(seen.name(), seen.nanos(), Long::sum));
        return byName;
    }

    /**
     * What {@link #nanos} holds, part by part, in milliseconds, for a log line: {@code 12.3 ms: threads 10.1 ms
     * (chiplet-measure-arms 8.0 ms, ...), hooks 2.2 ms (1 in 16 calls timed)}; with the exactly timed work where there
     * is any.
     */
    public String breakdown()
    {
        long total = nanos();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%.1f ms: threads %.1f ms (", total / 1e6, threadNanos() / 1e6));
        Map<String, Long> byName = threadNanosByName();
        if (byName.isEmpty()) {
            line.append("none");
        }
        String separator = "";
        for (Map.Entry<String, Long> thread : byName.entrySet()) {
            line.append(separator).append(String.format(Locale.ROOT, "%s %.1f ms", thread.getKey(), thread.getValue() / 1e6));
            separator = ", ";
        }
        line.append(String.format(Locale.ROOT, "), hooks %.1f ms (1 in %d calls timed)", hookNanos() / 1e6, SAMPLE_EVERY));
        if (exactNanos() > 0) {
            line.append(String.format(Locale.ROOT, ", work timed on every call %.1f ms", exactNanos() / 1e6));
        }
        return line.toString();
    }
}
