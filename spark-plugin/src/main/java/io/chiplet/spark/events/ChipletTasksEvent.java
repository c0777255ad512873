package io.chiplet.spark.events;

import io.chiplet.spark.messages.TaskPlaces;
import org.apache.spark.scheduler.SparkListenerEvent;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Where an executor's tasks ran since its previous such event, as it sent it every few seconds: per stage, chiplet
 * and arm the tasks that ended and their time summed, and at most {@link TaskPlaces#RECENT} of them one by one. The
 * event log grows with time and stages, not with tasks.
 *
 * @param stages per stage, chiplet ({@code -1}: none) and arm ({@code placed}, {@code control}, or empty where not measured)
 * @param recent the last tasks of the interval, oldest first
 */
public record ChipletTasksEvent(long time, String executorId, List<StageRow> stages, List<TaskRow> recent)
        implements SparkListenerEvent
{
    public record StageRow(int stageId, int chiplet, String arm, long tasks, long millis) {}

    /** @param cpus the CPUs the task's thread was bound to (a cpulist), empty where it was not bound on its own */
    public record TaskRow(int stageId, long taskId, int partition, int chiplet, String cpus, String arm, long millis, boolean failed) {}

    public ChipletTasksEvent
    {
        requireNonNull(executorId, "executorId is null");
        stages = stages == null ? List.of() : List.copyOf(stages);
        recent = recent == null ? List.of() : List.copyOf(recent);
    }

    static ChipletTasksEvent of(long time, TaskPlaces places)
    {
        return new ChipletTasksEvent(time, places.executorId(),
                places.stages().stream().map(row -> new StageRow(row.stageId(), row.chiplet(), row.arm(), row.tasks(), row.millis())).toList(),
                places.recent().stream().map(task -> new TaskRow(task.stageId(), task.taskId(), task.partition(), task.chiplet(), task.cpus(), task.arm(), task.millis(),
                        task.failed())).toList());
    }
}
