package io.chiplet.spark.events;

import io.chiplet.spark.messages.TopologyReport;
import org.apache.spark.scheduler.SparkListenerEvent;

import static java.util.Objects.requireNonNull;

/**
 * An executor's machine as it reported it at its start: the chiplets it works on and whether they are its own.
 *
 * @param time the driver's clock when the report arrived (epoch milliseconds)
 * @param mode {@code task} or {@code executor}
 * @param ownChiplets whether the executor holds chiplets of its own (a leased chiplet, or its share of the host)
 */
public record ChipletTopologyEvent(long time, String executorId, String host, String mode, int chiplets, int cores, long chipletL3Bytes, boolean ownChiplets)
        implements SparkListenerEvent
{
    public ChipletTopologyEvent
    {
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(mode, "mode is null");
    }

    static ChipletTopologyEvent of(long time, TopologyReport report)
    {
        return new ChipletTopologyEvent(time, report.executorId(), report.host(), report.mode().configName(), report.summary().chiplets(), report.summary().cores(),
                report.summary().chipletL3Bytes(), report.ownChiplets());
    }
}
