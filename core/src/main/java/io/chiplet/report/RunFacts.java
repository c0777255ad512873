package io.chiplet.report;

import io.chiplet.topology.CpuSet;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * One application run as the plugin saw it: its executors' chiplets, where its tasks ran, the settings chosen, the
 * measurement over time, the guard's actions and the plugin's own cost. Made from a Spark event log
 * ({@code chiplet report}) or from the live events (the Spark UI's Chiplet tab); {@link RunsPage} draws it.
 *
 * @param source where the run was read from: a log's path, or the live application
 * @param taskPlaces where tasks ran, per stage and the last few one by one ({@link TaskView}, bounded)
 */
public record RunFacts(String source, String name, String id, OptionalLong started, OptionalLong ended, List<Executor> executors, Map<String, Placement> placement,
        Optional<Settings> settings, List<MeasurePoint> measurements, Optional<Map<String, Object>> lastReport, List<GuardAction> guard, long pluginCpuNanos,
        long jobCpuNanos, TaskView taskPlaces)
{
    /**
     * @param machine the executor's host as it read it; empty in logs of plugin versions that did not write it
     * @param cpus the CPUs it places its tasks on; empty where unknown or none (a control executor)
     */
    public record Executor(String id, String host, String mode, long chiplets, long cores, long chipletL3Bytes, boolean ownChiplets, Optional<MachinePicture> machine,
            CpuSet cpus)
    {
        public Executor
        {
            requireNonNull(id, "id is null");
            requireNonNull(host, "host is null");
            requireNonNull(mode, "mode is null");
            requireNonNull(machine, "machine is null");
            requireNonNull(cpus, "cpus is null");
        }

        public Executor(String id, String host, String mode, long chiplets, long cores, long chipletL3Bytes, boolean ownChiplets)
        {
            this(id, host, mode, chiplets, cores, chipletL3Bytes, ownChiplets, Optional.empty(), CpuSet.empty());
        }
    }

    public record Placement(long tasks, long unplaced, long failed, Map<String, Long> tasksByChiplet) {}

    public record Settings(String basis, List<String> settings) {}

    /** The measurement at one time: its figures where it had one (speed-up and interval), else NaN. */
    public record MeasurePoint(long time, long placed, long control, boolean placing, double speedUp, double speedUpLow, double speedUpHigh, boolean last) {}

    public record GuardAction(long time, boolean placing, String why) {}

    public RunFacts
    {
        requireNonNull(source, "source is null");
        requireNonNull(name, "name is null");
        requireNonNull(id, "id is null");
        executors = List.copyOf(executors);
        placement = Map.copyOf(placement);
        measurements = List.copyOf(measurements);
        guard = List.copyOf(guard);
        requireNonNull(taskPlaces, "taskPlaces is null");
    }

    /** A run without tasks one by one (logs of plugin versions that did not write them). */
    public RunFacts(String source, String name, String id, OptionalLong started, OptionalLong ended, List<Executor> executors, Map<String, Placement> placement,
            Optional<Settings> settings, List<MeasurePoint> measurements, Optional<Map<String, Object>> lastReport, List<GuardAction> guard, long pluginCpuNanos,
            long jobCpuNanos)
    {
        this(source, name, id, started, ended, executors, placement, settings, measurements, lastReport, guard, pluginCpuNanos, jobCpuNanos, TaskView.EMPTY);
    }

    /** Whether the plugin was in the application (it posted any of its events). */
    public boolean hadPlugin()
    {
        return !executors.isEmpty() || !placement.isEmpty() || settings.isPresent() || !measurements.isEmpty();
    }

    /** Tasks per chiplet id over all executors (each executor's last counts). */
    public Map<String, Long> tasksByChiplet()
    {
        Map<String, Long> total = new TreeMap<>((a, b) -> {
            try {
                return Long.compare(Long.parseLong(a), Long.parseLong(b));
            }
            catch (NumberFormatException e) {
                return a.compareTo(b);
            }
        });
        placement.values().forEach(counts -> counts.tasksByChiplet().forEach((chiplet, tasks) -> total.merge(chiplet, tasks, Long::sum)));
        return total;
    }

    public long tasks()
    {
        return placement.values().stream().mapToLong(Placement::tasks).sum();
    }

    public long unplaced()
    {
        return placement.values().stream().mapToLong(Placement::unplaced).sum();
    }
}
