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
 * @param machine its host's chiplets and CPUs, core's {@code MachinePicture} as JSON; empty in logs of older versions
 * @param cpus the CPUs it places its tasks on (a cpulist); empty where unknown (a control executor places on none)
 */
public record ChipletTopologyEvent(long time, String executorId, String host, String mode, int chiplets, int cores, long chipletL3Bytes, boolean ownChiplets,
        String machine, String cpus)
        implements SparkListenerEvent
{
    public ChipletTopologyEvent
    {
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(mode, "mode is null");
        // Absent from logs the plugin wrote before it carried the host's picture.
        machine = machine == null ? "" : machine;
        cpus = cpus == null ? "" : cpus;
    }

    static ChipletTopologyEvent of(long time, TopologyReport report)
    {
        return new ChipletTopologyEvent(time, report.executorId(), report.host(), report.mode().configName(), report.summary().chiplets(), report.summary().cores(),
                report.summary().chipletL3Bytes(), report.ownChiplets(), report.machine(), report.cpus());
    }
}
