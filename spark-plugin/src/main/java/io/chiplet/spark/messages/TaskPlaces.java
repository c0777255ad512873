package io.chiplet.spark.messages;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Where an executor's tasks ran since its last such message, sent with its counts every few seconds (as a
 * {@link PluginMessages} string): per stage, chiplet and arm the tasks that ended and their time, and the last few
 * tasks one by one. Bounded whatever the job's size: the per-stage rows grow with stages times chiplets, the tasks
 * one by one are at most {@link #RECENT} a message.
 *
 * @param stages tasks that ended since the last message, summed per stage, chiplet and arm
 * @param recent the last tasks that ended since the last message, oldest first, at most {@link #RECENT}
 */
public record TaskPlaces(String executorId, List<StageChiplet> stages, List<TaskPlace> recent)
{
    /** Tasks one by one in a message at most. */
    public static final int RECENT = 20;
    /** A task that ran on no chiplet of its own (control, or placement off). */
    public static final int NO_CHIPLET = -1;

    /**
     * @param chiplet the chiplet id, {@link #NO_CHIPLET} for tasks placed on none
     * @param arm {@code placed} or {@code control} where the run was measured, else empty
     * @param millis the tasks' time from start to end on the executor, summed
     */
    public record StageChiplet(int stageId, int chiplet, String arm, long tasks, long millis)
    {
        public StageChiplet
        {
            requireNonNull(arm, "arm is null");
        }
    }

    /**
     * @param taskId Spark's task id (the task attempt id)
     * @param cpus the CPUs its thread was bound to (a cpulist); empty where it was not bound on its own
     */
    public record TaskPlace(int stageId, long taskId, int partition, int chiplet, String cpus, String arm, long millis, boolean failed)
    {
        public TaskPlace
        {
            requireNonNull(cpus, "cpus is null");
            requireNonNull(arm, "arm is null");
        }
    }

    public TaskPlaces
    {
        requireNonNull(executorId, "executorId is null");
        stages = List.copyOf(stages);
        recent = List.copyOf(recent);
        if (recent.size() > RECENT) {
            throw new IllegalArgumentException("expected at most " + RECENT + " tasks one by one, got " + recent.size());
        }
    }

    public boolean isEmpty()
    {
        return stages.isEmpty() && recent.isEmpty();
    }
}
