package io.chiplet.spark.events;

import io.chiplet.measure.MeasureReport;
import org.apache.spark.scheduler.SparkListenerEvent;

import static java.util.Objects.requireNonNull;

/**
 * The measurement as it stands ({@code docs/measuring.md}): its summary line, the placing state, the plugin's own
 * cost, and the whole report as its {@code chiplet.measure} JSON, from which {@code chiplet report} and the Chiplet
 * page draw the chart. Posted when the figures changed (at most once per stage or job end), and at the application's
 * end with {@code last} set.
 *
 * @param pluginCpuNanos the plugin's own CPU time, driver and executors
 * @param jobCpuNanos the CPU time Spark counted for the job's tasks
 * @param reportJson {@link MeasureReport#json()}
 */
public record ChipletMeasureEvent(long time, boolean last, String summary, boolean placing, int placedTasks, int controlTasks, long pluginCpuNanos, long jobCpuNanos,
        String reportJson)
        implements SparkListenerEvent
{
    public ChipletMeasureEvent
    {
        requireNonNull(summary, "summary is null");
        requireNonNull(reportJson, "reportJson is null");
    }

    static ChipletMeasureEvent of(long time, boolean last, MeasureReport report)
    {
        return new ChipletMeasureEvent(time, last, report.summaryLine(), report.guard().placing(), report.estimate().placedUnits(), report.estimate().controlUnits(),
                report.cost().pluginCpuNanos(), report.cost().jobCpuNanos(), report.json());
    }
}
