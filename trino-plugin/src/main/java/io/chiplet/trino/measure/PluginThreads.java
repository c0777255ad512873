package io.chiplet.trino.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/** The CPU time of this JVM's threads of the plugin (named {@code chiplet-*}), read from the JVM, not estimated. */
public final class PluginThreads
{
    public static final String NAME_PREFIX = "chiplet-";

    private PluginThreads() {}

    /** Their CPU time so far in nanoseconds; 0 where the JVM does not measure thread CPU time. */
    public static long cpuNanos()
    {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported() || !threads.isThreadCpuTimeEnabled()) {
            return 0;
        }
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(NAME_PREFIX)) {
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu > 0) {
                    total += cpu;
                }
            }
        }
        return total;
    }

    /** The calling thread's CPU time in nanoseconds, 0 where not measured: for the plugin's hooks on Trino's threads. */
    public static long currentThreadCpuNanos()
    {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? Math.max(0, threads.getCurrentThreadCpuTime()) : 0;
    }
}
