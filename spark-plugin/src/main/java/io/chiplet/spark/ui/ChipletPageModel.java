package io.chiplet.spark.ui;

import io.chiplet.report.JsonValues;
import io.chiplet.report.RunFacts;
import io.chiplet.report.RunsPage;
import io.chiplet.spark.events.ChipletGuardEvent;
import io.chiplet.spark.events.ChipletMeasureEvent;
import io.chiplet.spark.events.ChipletPlacementEvent;
import io.chiplet.spark.events.ChipletSettingsEvent;
import io.chiplet.spark.events.ChipletTopologyEvent;
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
                    topology.chipletL3Bytes(), topology.ownChiplets()));
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

    /** The plugin's events so far, in order (what the History Server keeps in its store). */
    public synchronized List<SparkListenerEvent> events()
    {
        return List.copyOf(events);
    }

    public synchronized RunFacts facts(String source)
    {
        return new RunFacts(source, name, id, started, ended, List.copyOf(executors.values()), placement, settings, measurements, lastReport, guard, pluginCpuNanos,
                jobCpuNanos);
    }

    /** The tab's page. */
    public String html(String source)
    {
        return new RunsPage(List.of(facts(source)), ChipletDocs.BASE).html();
    }

    private static double real(Object value)
    {
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
