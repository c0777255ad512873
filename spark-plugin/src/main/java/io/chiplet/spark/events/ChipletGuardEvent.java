package io.chiplet.spark.events;

import org.apache.spark.scheduler.SparkListenerEvent;

import static java.util.Objects.requireNonNull;

/**
 * The guard's action: placement stopped (or, after a stop, the state it reached), with the summary line that gives
 * the evidence.
 *
 * @param placing whether tasks are placed after this action
 */
public record ChipletGuardEvent(long time, boolean placing, String why)
        implements SparkListenerEvent
{
    public ChipletGuardEvent
    {
        requireNonNull(why, "why is null");
    }
}
