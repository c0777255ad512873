package io.chiplet.spark.ui;

import io.chiplet.report.JsonValues;
import io.chiplet.report.MachinePicture;
import io.chiplet.report.TaskView;
import io.chiplet.report.RunFacts;
import io.chiplet.report.RunsPage;
import io.chiplet.spark.events.ChipletGuardEvent;
import io.chiplet.spark.events.ChipletMeasureEvent;
import io.chiplet.spark.events.ChipletPlacementEvent;
import io.chiplet.spark.events.ChipletSettingsEvent;
import io.chiplet.spark.events.ChipletTasksEvent;
import io.chiplet.spark.events.ChipletTopologyEvent;
import io.chiplet.topology.CpuSet;
import org.apache.spark.scheduler.SparkListenerEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What the Chiplet tab shows, folded from the plugin's events as they arrive (live) or are replayed (History Server).
 * Events come on the listener bus's thread, pages are drawn on Jetty's: both under this object's lock.
 */
public final class ChipletPageModel
{
    private String name = "";
    private String id = "";
    private OptionalLong started = OptionalLong.empty();
    private OptionalLong ended = OptionalLong.empty();
    private final Map<String, RunFacts.Executor> executors = new TreeMap<>();
    private final Map<String, RunFacts.Placement> placement = new TreeMap<>();
    private Optional<RunFacts.Settings> settings = Optional.empty();
    private final List<RunFacts.MeasurePoint> measurements = new ArrayList<>();
    private Optional<Map<String, Object>> lastReport = Optional.empty();
    private final List<RunFacts.GuardAction> guard = new ArrayList<>();
    private long pluginCpuNanos;
    private long jobCpuNanos;
    private final List<SparkListenerEvent> events = new ArrayList<>();
    private final TaskView.Builder tasks = new TaskView.Builder();
    private Optional<TaskView> storedTasks = Optional.empty();

    public synchronized void application(String name, String id, OptionalLong started)
    {
        this.name = name == null ? "" : name;
        this.id = id == null ? "" : id;
        this.started = started;
    }

    public synchronized void ended(long time)
    {
        this.ended = OptionalLong.of(time);
    }

    /** One of the plugin's events; anything else is ignored. Returns whether it was one. */
    public synchronized boolean add(SparkListenerEvent event)
    {
        if (event instanceof ChipletTopologyEvent topology) {
            executors.put(topology.executorId(), new RunFacts.Executor(topology.executorId(), topology.host(), topology.mode(), topology.chiplets(), topology.cores(),
                    topology.chipletL3Bytes(), topology.ownChiplets(), picture(topology.machine()), CpuSet.parseList(topology.cpus())));
        }
        else if (event instanceof ChipletTasksEvent ended) {
            ended.stages().forEach(row -> tasks.stage(row.stageId(), ended.executorId(), row.chiplet(), row.arm(), row.tasks(), row.millis()));
            ended.recent().forEach(task -> tasks.task(new TaskView.TaskRow(task.stageId(), task.taskId(), task.partition(), ended.executorId(), task.chiplet(), task.cpus(),
                    task.arm(), task.millis(), task.failed())));
            // Kept folded: the History Server's store then holds the view, not every interval's event.
            return true;
        }
        else if (event instanceof ChipletPlacementEvent counts) {
            placement.put(counts.executorId(), new RunFacts.Placement(counts.tasks(), counts.unplaced(), counts.failed(), counts.tasksByChiplet()));
        }
        else if (event instanceof ChipletSettingsEvent chosen) {
            settings = Optional.of(new RunFacts.Settings(chosen.basis(), chosen.settings()));
        }
        else if (event instanceof ChipletMeasureEvent measure) {
            Map<String, Object> report = JsonValues.parseObject(measure.reportJson());
            Map<?, ?> estimate = report.get("estimate") instanceof Map<?, ?> map ? map : Map.of();
            measurements.add(new RunFacts.MeasurePoint(measure.time(), measure.placedTasks(), measure.controlTasks(), measure.placing(), real(estimate.get("speedUp")),
                    real(estimate.get("speedUpLow")), real(estimate.get("speedUpHigh")), measure.last()));
            lastReport = Optional.of(report);
            pluginCpuNanos = measure.pluginCpuNanos();
            jobCpuNanos = measure.jobCpuNanos();
        }
        else if (event instanceof ChipletGuardEvent action) {
            guard.add(new RunFacts.GuardAction(action.time(), action.placing(), action.why()));
        }
        else {
            return false;
        }
        events.add(event);
        return true;
    }

    /** Where tasks ran, folded and bounded (what the History Server keeps in its store beside the other events). */
    public synchronized TaskView taskView()
    {
        return storedTasks.orElseGet(tasks::build);
    }

    /** The view the History Server kept while it replayed the log. */
    public synchronized void taskView(TaskView view)
    {
        storedTasks = Optional.of(view);
    }

    /** The plugin's events so far, in order, but for where tasks ran ({@link #taskView()}): what the History Server keeps in its store. */
    public synchronized List<SparkListenerEvent> events()
    {
        return List.copyOf(events);
    }

    public synchronized RunFacts facts(String source)
    {
        return new RunFacts(source, name, id, started, ended, List.copyOf(executors.values()), placement, settings, measurements, lastReport, guard, pluginCpuNanos,
                jobCpuNanos, taskView());
    }

    /** The tab's page. */
    public String html(String source)
    {
        return new RunsPage(List.of(facts(source)), ChipletDocs.BASE).html();
    }

    /** The executor's host picture; none where the event has none (older logs) or one this version cannot read. */
    private static Optional<MachinePicture> picture(String json)
    {
        if (json.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MachinePicture.parse(json));
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static double real(Object value)
    {
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
