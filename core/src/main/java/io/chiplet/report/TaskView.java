package io.chiplet.report;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Where a run's tasks ran, bounded so that a job of 100,000 tasks keeps a small page: per stage, executor, chiplet
 * and arm the tasks and their time, for the last {@link #MAX_STAGES} stages (by stage id), and the last
 * {@link #MAX_RECENT} tasks one by one. The page says both bounds. Executors send tasks one by one only in part
 * (their last few each few seconds), so the last tasks are a sample, while the per-stage counts are whole.
 *
 * @param stagesLeftOut stages seen whose rows were dropped for the bound
 * @param tasksEnded tasks the per-stage rows counted, left-out stages included
 */
public record TaskView(List<StageRow> stages, List<TaskRow> recent, long stagesLeftOut, long tasksEnded)
{
    public static final int MAX_STAGES = 50;
    public static final int MAX_RECENT = 50;
    /** A task placed on no chiplet of its own. */
    public static final int NO_CHIPLET = -1;

    public static final TaskView EMPTY = new TaskView(List.of(), List.of(), 0, 0);

    /**
     * @param arm {@code placed}, {@code control}, or empty where the run was not measured
     * @param millis the tasks' time from start to end, summed
     */
    public record StageRow(int stageId, String executorId, int chiplet, String arm, long tasks, long millis)
    {
        public StageRow
        {
            requireNonNull(executorId, "executorId is null");
            requireNonNull(arm, "arm is null");
        }
    }

    public record TaskRow(int stageId, long taskId, int partition, String executorId, int chiplet, String cpus, String arm, long millis, boolean failed)
    {
        public TaskRow
        {
            requireNonNull(executorId, "executorId is null");
            requireNonNull(cpus, "cpus is null");
            requireNonNull(arm, "arm is null");
        }
    }

    public TaskView
    {
        stages = List.copyOf(stages);
        recent = List.copyOf(recent);
    }

    /**
     * Whether there is no row to show. Not named {@code isEmpty}: the History Server's disk store writes this record
     * through Jackson, which would take such a getter for a property and then refuse to read it back.
     */
    public boolean holdsNothing()
    {
        return stages.isEmpty() && recent.isEmpty();
    }

    /** Folds the rows as executors sent them, in order. Not thread-safe. */
    public static final class Builder
    {
        private record Key(String executorId, int chiplet, String arm) {}

        private final TreeMap<Integer, Map<Key, long[]>> byStage = new TreeMap<>();
        private final ArrayDeque<TaskRow> recent = new ArrayDeque<>();
        private long stagesLeftOut;
        private long tasksEnded;
        private int highestLeftOut = Integer.MIN_VALUE;

        public Builder stage(int stageId, String executorId, int chiplet, String arm, long tasks, long millis)
        {
            tasksEnded += tasks;
            if (stageId <= highestLeftOut && !byStage.containsKey(stageId)) {
                return this;
            }
            long[] sums = byStage.computeIfAbsent(stageId, key -> new LinkedHashMap<>()).computeIfAbsent(new Key(executorId, chiplet, arm), key -> new long[2]);
            sums[0] += tasks;
            sums[1] += millis;
            while (byStage.size() > MAX_STAGES) {
                highestLeftOut = Math.max(highestLeftOut, byStage.pollFirstEntry().getKey());
                stagesLeftOut++;
            }
            return this;
        }

        public Builder task(TaskRow task)
        {
            if (recent.size() == MAX_RECENT) {
                recent.removeFirst();
            }
            recent.addLast(requireNonNull(task, "task is null"));
            return this;
        }

        public TaskView build()
        {
            List<StageRow> rows = new ArrayList<>();
            byStage.forEach((stage, keys) -> keys.forEach((key, sums) -> rows.add(new StageRow(stage, key.executorId(), key.chiplet(), key.arm(), sums[0], sums[1]))));
            return new TaskView(rows, List.copyOf(recent), stagesLeftOut, tasksEnded);
        }
    }
}
