package io.chiplet.spark.messages;

import io.chiplet.spark.placement.PlacementMetrics;

import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * One executor's task counts so far, sent to the driver every few seconds (as a {@link PluginMessages} string) so
 * that the driver's metrics, which its Prometheus servlet serves, show every executor's placement: executors have
 * no HTTP endpoint of their own, and Spark's executor metrics (the REST API's, {@code /metrics/executors/prometheus})
 * are a fixed set a plugin cannot add to.
 *
 * @param tasksByChiplet tasks started per chiplet id
 */
public record PlacementCounts(String executorId, long tasks, long unplaced, long failed, Map<Integer, Long> tasksByChiplet)
{
    public PlacementCounts
    {
        requireNonNull(executorId, "executorId is null");
        tasksByChiplet = Map.copyOf(tasksByChiplet);
    }

    public static PlacementCounts of(String executorId, PlacementMetrics metrics)
    {
        Map<Integer, Long> byChiplet = new TreeMap<>();
        for (int id : metrics.chipletIds()) {
            byChiplet.put(id, metrics.tasksOn(id));
        }
        return new PlacementCounts(executorId, metrics.tasks(), metrics.unplacedTasks(), metrics.failedTasks(), byChiplet);
    }

    /**
     * The executor's placement in one line, for the driver's log at the application's end: {@code Chiplet placement on
     * executor 1 (its last counts): 46 tasks (0 unplaced, 0 failed), per chiplet [0:46]}.
     */
    public String summaryLine()
    {
        StringBuilder perChiplet = new StringBuilder();
        new TreeMap<>(tasksByChiplet).forEach((chiplet, count) -> perChiplet.append(perChiplet.length() == 0 ? "" : " ").append(chiplet).append(':').append(count));
        return "Chiplet placement on executor " + executorId + " (its last counts): " + tasks + " tasks (" + unplaced + " unplaced, " + failed + " failed), per chiplet ["
                + perChiplet + "]";
    }
}
