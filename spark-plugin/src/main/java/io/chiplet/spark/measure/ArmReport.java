package io.chiplet.spark.measure;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * An executor's message to the driver: the arms of the tasks that ended since its last report, by task id (Spark's
 * {@code TaskInfo.taskId}, the task attempt id), its plugin's CPU time so far, and its host's key (the cluster of
 * windows is host and window).
 *
 * @param hostKey the same for every executor of one host ({@link HostKey})
 * @param oneL3 whether its host has one L3 group: placement has nothing to separate there, so it measures nothing
 */
public record ArmReport(String executorId, long pluginCpuNanos, Map<Long, TaskArm> arms, String hostKey, boolean oneL3)
{
    public ArmReport
    {
        requireNonNull(executorId, "executorId is null");
        requireNonNull(hostKey, "hostKey is null");
        arms = Map.copyOf(arms);
    }

    public ArmReport(String executorId, long pluginCpuNanos, Map<Long, TaskArm> arms)
    {
        this(executorId, pluginCpuNanos, arms, "", false);
    }
}
