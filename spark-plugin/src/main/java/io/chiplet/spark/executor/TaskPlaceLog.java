package io.chiplet.spark.executor;

import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.topology.CpuSet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where this executor's tasks ran, kept until the next message to the driver ({@link #drain}): per stage, chiplet and
 * arm a count and a sum, and the last {@link TaskPlaces#RECENT} tasks one by one. Its size does not grow with the
 * number of tasks. One short lock per task end; a task's CPUs are written out as text only for those sent one by one.
 */
final class TaskPlaceLog
{
    private record Key(int stageId, int chiplet, String arm) {}

    private record Ended(int stageId, long taskId, int partition, int chiplet, Optional<CpuSet> cpus, String arm, long millis, boolean failed) {}

    private final String executorId;
    private final Map<Key, long[]> stages = new LinkedHashMap<>();
    private final ArrayDeque<Ended> recent = new ArrayDeque<>();

    TaskPlaceLog(String executorId)
    {
        this.executorId = executorId;
    }

    /**
     * @param chiplet {@link TaskPlaces#NO_CHIPLET} where the task was placed on none
     * @param cpus the CPUs its thread was bound to, empty where it was not bound on its own
     */
    synchronized void ended(int stageId, long taskId, int partition, int chiplet, Optional<CpuSet> cpus, String arm, long millis, boolean failed)
    {
        long[] sums = stages.computeIfAbsent(new Key(stageId, chiplet, arm), key -> new long[2]);
        sums[0]++;
        sums[1] += millis;
        if (recent.size() == TaskPlaces.RECENT) {
            recent.removeFirst();
        }
        recent.addLast(new Ended(stageId, taskId, partition, chiplet, cpus, arm, millis, failed));
    }

    /** What ended since the last drain; empty when nothing did. */
    TaskPlaces drain()
    {
        List<TaskPlaces.StageChiplet> rows;
        List<Ended> last;
        synchronized (this) {
            rows = new ArrayList<>(stages.size());
            stages.forEach((key, sums) -> rows.add(new TaskPlaces.StageChiplet(key.stageId(), key.chiplet(), key.arm(), sums[0], sums[1])));
            last = List.copyOf(recent);
            stages.clear();
            recent.clear();
        }
        return new TaskPlaces(executorId, rows, last.stream()
                .map(task -> new TaskPlaces.TaskPlace(task.stageId(), task.taskId(), task.partition(), task.chiplet(), task.cpus().map(CpuSet::toList).orElse(""), task.arm(),
                        task.millis(), task.failed()))
                .toList());
    }
}
