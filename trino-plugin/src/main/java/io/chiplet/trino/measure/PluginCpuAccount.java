package io.chiplet.trino.measure;

import io.chiplet.measure.PluginCost;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The plugin's cost while measuring, every part read from a CPU clock: the coordinator's {@code chiplet-*} threads,
 * every worker's (as the publisher heard them), the coordinator hooks' calls and the plugin's own statements, against
 * the CPU time of the queries completed. Not thread-safe.
 */
final class PluginCpuAccount
{
    private final LongSupplier coordinatorThreadsCpuNanos;
    private final Map<String, Long> workerPluginCpu = new HashMap<>();
    private long hookCpuNanos;
    private long ownStatementCpuNanos;
    private long jobCpuNanos;
    private long queries;

    /**
     * @param coordinatorThreadsCpuNanos the CPU time of the plugin's threads on the coordinator ({@link PluginThreads#cpuNanos})
     */
    PluginCpuAccount(LongSupplier coordinatorThreadsCpuNanos)
    {
        this.coordinatorThreadsCpuNanos = requireNonNull(coordinatorThreadsCpuNanos, "coordinatorThreadsCpuNanos is null");
    }

    /** A completed query: counted in the job's CPU, whether it is compared or not. */
    void countQuery(long cpuNanos)
    {
        queries++;
        jobCpuNanos += cpuNanos;
    }

    /** CPU time of a coordinator hook's call on Trino's thread; nothing where not positive. */
    void countHook(long cpuNanos)
    {
        if (cpuNanos > 0) {
            hookCpuNanos += cpuNanos;
        }
    }

    /** CPU time Trino counted for a statement the plugin ran itself; nothing where not positive. */
    void countOwnStatement(long cpuNanos)
    {
        if (cpuNanos > 0) {
            ownStatementCpuNanos += cpuNanos;
        }
    }

    /** Each worker's plugin CPU time, as its JVM counts it; a later figure of a worker replaces its earlier one. */
    void workersReported(Map<String, Long> pluginCpuByWorker)
    {
        workerPluginCpu.putAll(pluginCpuByWorker);
    }

    /** The queries completed while measuring. */
    long queries()
    {
        return queries;
    }

    PluginCost cost()
    {
        return cost(coordinatorThreadsCpuNanos.getAsLong());
    }

    private PluginCost cost(long threadsCpuNanos)
    {
        return new PluginCost(threadsCpuNanos + workersPluginCpu() + hookCpuNanos + ownStatementCpuNanos, jobCpuNanos);
    }

    private long workersPluginCpu()
    {
        return workerPluginCpu.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What the plugin's CPU figure counts, each part in milliseconds: every part is a CPU clock, none is wall time. */
    String note()
    {
        long threadsCpuNanos = coordinatorThreadsCpuNanos.getAsLong();
        return String.format(Locale.ROOT, "plugin CPU %.0f ms, all read from CPU clocks: the coordinator's chiplet-* threads %.0f ms and every worker's "
                        + "(the placement agent; %d workers reported) %.0f ms, as their JVMs count them; the event listeners' and the session property "
                        + "manager's calls %.0f ms, each on its thread's CPU clock; the plugin's own statements (worker reports, schedule publishing) %.0f ms, as Trino counted "
                        + "them; against %.0f ms of CPU of the %d other queries completed",
                cost(threadsCpuNanos).pluginCpuNanos() / 1e6, threadsCpuNanos / 1e6, workerPluginCpu.size(), workersPluginCpu() / 1e6,
                hookCpuNanos / 1e6, ownStatementCpuNanos / 1e6, jobCpuNanos / 1e6, queries);
    }
}
