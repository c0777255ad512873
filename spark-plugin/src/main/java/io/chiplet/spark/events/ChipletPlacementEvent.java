package io.chiplet.spark.events;

import io.chiplet.spark.messages.PlacementCounts;
import org.apache.spark.scheduler.SparkListenerEvent;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Where an executor's tasks ran so far: its counts as it last sent them (each event holds the running totals, so
 * the last one of an executor is its whole).
 *
 * @param tasksByChiplet tasks started per chiplet id (the id as text: JSON's keys are strings)
 */
public record ChipletPlacementEvent(long time, String executorId, long tasks, long unplaced, long failed, Map<String, Long> tasksByChiplet)
        implements SparkListenerEvent
{
    public ChipletPlacementEvent
    {
        requireNonNull(executorId, "executorId is null");
        // Sorted by id, so that the event log reads in order.
        tasksByChiplet = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(tasksByChiplet, "tasksByChiplet is null")));
    }

    static ChipletPlacementEvent of(long time, PlacementCounts counts)
    {
        Map<String, Long> byChiplet = new TreeMap<>();
        counts.tasksByChiplet().forEach((chiplet, tasks) -> byChiplet.put(Integer.toString(chiplet), tasks));
        return new ChipletPlacementEvent(time, counts.executorId(), counts.tasks(), counts.unplaced(), counts.failed(), byChiplet);
    }
}
