package io.chiplet.spark.measure;

import static java.util.Objects.requireNonNull;

/**
 * An executor in executor mode asks the driver, once at its start and before it leases or binds anything, whether it
 * is placed or control: the driver draws executors' arms in the order they ask (core's
 * {@link io.chiplet.measure.ArmAssignment#ofProcess}), so the first executor is always placed.
 */
public record ExecutorArmRequest(String executorId)
{
    public ExecutorArmRequest
    {
        requireNonNull(executorId, "executorId is null");
    }
}
