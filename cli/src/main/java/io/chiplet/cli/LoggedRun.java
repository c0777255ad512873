package io.chiplet.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * One Spark application as its event log tells it, with the chiplet plugin's events ({@code io.chiplet.spark.events}):
 * its executors' chiplets, where its tasks ran, the settings chosen, the measurement over time, the guard's actions
 * and the plugin's own cost.
 */
record LoggedRun(Path source, String name, String id, OptionalLong started, OptionalLong ended, List<Executor> executors, Map<String, Placement> placement,
        Optional<Settings> settings, List<MeasurePoint> measurements, Optional<Map<String, Object>> lastReport, List<GuardAction> guard, long pluginCpuNanos,
        long jobCpuNanos)
{
    static final String EVENTS = "io.chiplet.spark.events.";

    record Executor(String id, String host, String mode, long chiplets, long cores, long chipletL3Bytes, boolean ownChiplets) {}

    record Placement(long tasks, long unplaced, long failed, Map<String, Long> tasksByChiplet) {}

    record Settings(String basis, List<String> settings) {}

    /** The measurement at one time: its figures where it had one (speed-up and interval), else NaN. */
    record MeasurePoint(long time, long placed, long control, boolean placing, double speedUp, double speedUpLow, double speedUpHigh, boolean last) {}

    record GuardAction(long time, boolean placing, String why) {}

    LoggedRun
    {
        requireNonNull(source, "source is null");
        requireNonNull(name, "name is null");
        requireNonNull(id, "id is null");
        executors = List.copyOf(executors);
        placement = Map.copyOf(placement);
        measurements = List.copyOf(measurements);
        guard = List.copyOf(guard);
    }

    /** Whether the plugin was in the application (it posted any of its events). */
    boolean hadPlugin()
    {
        return !executors.isEmpty() || !placement.isEmpty() || settings.isPresent() || !measurements.isEmpty();
    }

    /** Tasks per chiplet id over all executors (each executor's last counts). */
    Map<String, Long> tasksByChiplet()
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

    long tasks()
    {
        return placement.values().stream().mapToLong(Placement::tasks).sum();
    }

    long unplaced()
    {
        return placement.values().stream().mapToLong(Placement::unplaced).sum();
    }

    /** The run's events read into a run; {@code source} names the log in errors. */
    static LoggedRun of(Path source, List<Map<String, Object>> events)
    {
        String name = "";
        String id = "";
        OptionalLong started = OptionalLong.empty();
        OptionalLong ended = OptionalLong.empty();
        Map<String, Executor> executors = new TreeMap<>();
        Map<String, Placement> placement = new TreeMap<>();
        Optional<Settings> settings = Optional.empty();
        List<MeasurePoint> measurements = new ArrayList<>();
        Optional<Map<String, Object>> lastReport = Optional.empty();
        List<GuardAction> guard = new ArrayList<>();
        long pluginCpu = 0;
        long jobCpu = 0;
        for (Map<String, Object> event : events) {
            String type = String.valueOf(event.get("Event"));
            switch (type) {
                case "SparkListenerApplicationStart" -> {
                    name = text(event, "App Name");
                    id = text(event, "App ID");
                    started = number(event, "Timestamp");
                }
                case "SparkListenerApplicationEnd" -> ended = number(event, "Timestamp");
                case EVENTS + "ChipletTopologyEvent" -> executors.put(text(event, "executorId"), new Executor(text(event, "executorId"), text(event, "host"),
                        text(event, "mode"), number(event, "chiplets").orElse(0), number(event, "cores").orElse(0), number(event, "chipletL3Bytes").orElse(0),
                        Boolean.TRUE.equals(event.get("ownChiplets"))));
                case EVENTS + "ChipletPlacementEvent" -> {
                    Map<String, Long> byChiplet = new TreeMap<>();
                    if (event.get("tasksByChiplet") instanceof Map<?, ?> counts) {
                        counts.forEach((chiplet, tasks) -> byChiplet.put(String.valueOf(chiplet), tasks instanceof Number n ? n.longValue() : 0L));
                    }
                    placement.put(text(event, "executorId"), new Placement(number(event, "tasks").orElse(0), number(event, "unplaced").orElse(0),
                            number(event, "failed").orElse(0), byChiplet));
                }
                case EVENTS + "ChipletSettingsEvent" -> settings = Optional.of(new Settings(text(event, "basis"),
                        event.get("settings") instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of()));
                case EVENTS + "ChipletMeasureEvent" -> {
                    Map<String, Object> report = report(source, event);
                    Map<?, ?> estimate = report.get("estimate") instanceof Map<?, ?> map ? map : Map.of();
                    measurements.add(new MeasurePoint(number(event, "time").orElse(0), number(event, "placedTasks").orElse(0), number(event, "controlTasks").orElse(0),
                            Boolean.TRUE.equals(event.get("placing")), real(estimate.get("speedUp")), real(estimate.get("speedUpLow")), real(estimate.get("speedUpHigh")),
                            Boolean.TRUE.equals(event.get("last"))));
                    lastReport = Optional.of(report);
                    pluginCpu = number(event, "pluginCpuNanos").orElse(0);
                    jobCpu = number(event, "jobCpuNanos").orElse(0);
                }
                case EVENTS + "ChipletGuardEvent" -> guard.add(new GuardAction(number(event, "time").orElse(0), Boolean.TRUE.equals(event.get("placing")), text(event, "why")));
                default -> {
                }
            }
        }
        if (id.isEmpty()) {
            throw new IllegalArgumentException(source + ": no SparkListenerApplicationStart event (expected a Spark application's event log)");
        }
        return new LoggedRun(source, name, id, started, ended, List.copyOf(executors.values()), placement, settings, measurements, lastReport, guard, pluginCpu, jobCpu);
    }

    private static Map<String, Object> report(Path source, Map<String, Object> event)
    {
        try {
            return SparkEventLogs.parseObject(text(event, "reportJson"));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": a ChipletMeasureEvent whose reportJson is " + e.getMessage());
        }
    }

    private static String text(Map<String, Object> event, String field)
    {
        Object value = event.get(field);
        return value == null ? "" : String.valueOf(value);
    }

    private static OptionalLong number(Map<String, Object> event, String field)
    {
        return event.get(field) instanceof Number number ? OptionalLong.of(number.longValue()) : OptionalLong.empty();
    }

    private static double real(Object value)
    {
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
