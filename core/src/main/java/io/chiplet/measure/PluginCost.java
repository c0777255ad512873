package io.chiplet.measure;

import java.util.OptionalDouble;

/**
 * The plugin's own CPU time against the job's, both read from the JVMs (never estimated): the CPU time of the
 * plugin's own threads and of its hooks, measured where they run, and the CPU time the engine counted for the job's
 * work.
 */
public record PluginCost(long pluginCpuNanos, long jobCpuNanos)
{
    public PluginCost
    {
        if (pluginCpuNanos < 0 || jobCpuNanos < 0) {
            throw new IllegalArgumentException("expected CPU times of 0 or more, got " + pluginCpuNanos + " and " + jobCpuNanos);
        }
    }

    public static PluginCost none()
    {
        return new PluginCost(0, 0);
    }

    public PluginCost plus(PluginCost other)
    {
        return new PluginCost(pluginCpuNanos + other.pluginCpuNanos, jobCpuNanos + other.jobCpuNanos);
    }

    /** The plugin's share of the job's CPU time; empty while the job has used none. */
    public OptionalDouble share()
    {
        return jobCpuNanos == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) pluginCpuNanos / jobCpuNanos);
    }
}
