package io.chiplet.spark.measure;

import io.chiplet.measure.DrawnArm;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * An executor's message to the driver: the arms of the tasks it started since its last report (with the share each was
 * drawn at), by task id (Spark's
 * {@code TaskInfo.taskId}, the task attempt id), and its plugin's CPU time so far.
 */
public record ArmReport(String executorId, long pluginCpuNanos, Map<Long, DrawnArm> arms)
{
    public ArmReport
    {
        requireNonNull(executorId, "executorId is null");
        arms = Map.copyOf(arms);
    }
}
