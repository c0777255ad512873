package io.chiplet.spark.executor;

import io.chiplet.spark.messages.TaskPlaces;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where this executor's tasks ran, kept until the next message to the driver ({@link #drain}): per stage, chiplet and
 * arm a count and a sum, and the last {@link TaskPlaces#RECENT} tasks one by one. Its size does not grow with the
 * number of tasks. One short lock per task end.
 */
final class TaskPlaceLog
{
    private record Key(int stageId, int chiplet, String arm) {}

    private final String executorId;
    private final Map<Key, long[]> stages = new LinkedHashMap<>();
    private final ArrayDeque<TaskPlaces.TaskPlace> recent = new ArrayDeque<>();

    TaskPlaceLog(String executorId)
    {
        this.executorId = executorId;
    }

    synchronized void ended(TaskPlaces.TaskPlace task)
    {
        long[] sums = stages.computeIfAbsent(new Key(task.stageId(), task.chiplet(), task.arm()), key -> new long[2]);
        sums[0]++;
        sums[1] += task.millis();
        if (recent.size() == TaskPlaces.RECENT) {
            recent.removeFirst();
        }
        recent.addLast(task);
    }

    /** What ended since the last drain; empty when nothing did. */
    synchronized TaskPlaces drain()
    {
        List<TaskPlaces.StageChiplet> rows = new ArrayList<>(stages.size());
        stages.forEach((key, sums) -> rows.add(new TaskPlaces.StageChiplet(key.stageId(), key.chiplet(), key.arm(), sums[0], sums[1])));
        TaskPlaces places = new TaskPlaces(executorId, rows, List.copyOf(recent));
        stages.clear();
        recent.clear();
        return places;
    }
}
