package io.chiplet.spark.ui;

import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.util.kvstore.KVIndex;

import java.util.List;

/**
 * The plugin's events of one application as the History Server keeps them in its store (in memory, or on disk through
 * Spark's Jackson), written while it replays the log and read when it draws the tab.
 */
public final class ChipletUiData
{
    static final String ID = "chiplet";

    public String applicationName = "";
    public String applicationId = "";
    public long started;
    public long ended;
    public List<SparkListenerEvent> events = List.of();
    public io.chiplet.report.TaskView tasks = io.chiplet.report.TaskView.EMPTY;

    @KVIndex
    public String id()
    {
        return ID;
    }
}
