package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.github.luben.zstd.ZstdInputStream;
import io.chiplet.report.JsonValues;
import io.chiplet.report.MachinePicture;
import io.chiplet.report.TaskView;
import io.chiplet.topology.CpuSet;
import io.chiplet.report.RunFacts;
import net.jpountz.lz4.LZ4BlockInputStream;
import org.xerial.snappy.SnappyInputStream;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Spark event logs as Spark writes them: one file per application ({@code app-...}, compressed where its name ends in
 * the codec's short name: {@code .zstd}, {@code .lz4}, {@code .snappy}; {@code .inprogress} while it runs) or, Spark 4's
 * default, a rolling directory {@code eventlog_v2_<app>/} of {@code events_<n>_<app>[.codec]} files. Each line is one
 * event's JSON object. A log that cannot be read is one error naming its file and what was expected.
 */
final class SparkEventLogs
{
    static final String EVENTS = "io.chiplet.spark.events.";
    private static final JsonFactory JSON = new JsonFactory();

    private SparkEventLogs() {}

    /**
     * The application logs {@code path} names: itself where it is a log file or a rolling log directory, else (a
     * directory of logs, like {@code spark.eventLog.dir}) each log in it, by name.
     */
    static List<Path> logsIn(Path path)
    {
        requireNonNull(path, "path is null");
        if (!Files.exists(path)) {
            throw new IllegalArgumentException(path + ": no such file or directory (expected a Spark event log, a rolling eventlog_v2_* directory, or a directory of them)");
        }
        if (!Files.isDirectory(path) || isRolling(path)) {
            return List.of(path);
        }
        try (Stream<Path> entries = Files.list(path)) {
            List<Path> logs = entries.filter(entry -> !entry.getFileName().toString().startsWith(".")).sorted().toList();
            if (logs.isEmpty()) {
                throw new IllegalArgumentException(path + ": an empty directory (expected Spark event logs in it)");
            }
            return logs;
        }
        catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot list it: " + e.getMessage(), e);
        }
    }

    private static boolean isRolling(Path directory)
    {
        return directory.getFileName() != null && directory.getFileName().toString().startsWith("eventlog_v2_");
    }

    /** Every event of the log at {@code log}, in order, as maps of JSON values. */
    static List<Map<String, Object>> events(Path log)
    {
        List<Path> files = isRolling(log) ? rolledFiles(log) : List.of(log);
        List<Map<String, Object>> events = new ArrayList<>();
        for (Path file : files) {
            readInto(file, events);
        }
        return events;
    }

    private static List<Path> rolledFiles(Path directory)
    {
        try (Stream<Path> entries = Files.list(directory)) {
            List<Path> files = entries.filter(entry -> entry.getFileName().toString().startsWith("events_"))
                    .sorted((a, b) -> Integer.compare(rollIndex(a), rollIndex(b)))
                    .toList();
            if (files.isEmpty()) {
                throw new IllegalArgumentException(directory + ": a rolling event log directory without events_<n>_<app> files");
            }
            return files;
        }
        catch (IOException e) {
            throw new UncheckedIOException(directory + ": cannot list it: " + e.getMessage(), e);
        }
    }

    private static int rollIndex(Path file)
    {
        String[] parts = file.getFileName().toString().split("_");
        try {
            return Integer.parseInt(parts[1]);
        }
        catch (RuntimeException e) {
            throw new IllegalArgumentException(file + ": not a rolled event log file name (expected events_<n>_<app>)");
        }
    }

    private static void readInto(Path file, List<Map<String, Object>> events)
    {
        String name = file.getFileName().toString().replaceFirst("\\.inprogress$", "");
        int line = 0;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(decompressed(file, name), StandardCharsets.UTF_8))) {
            for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                try (JsonParser parser = JSON.createParser(text)) {
                    if (parser.nextToken() != JsonToken.START_OBJECT || !(JsonValues.value(parser) instanceof Map<?, ?> object) || !object.containsKey("Event")) {
                        throw new IllegalArgumentException(file + ": line " + line + " is not a Spark event (a JSON object with an \"Event\" field)");
                    }
                    @SuppressWarnings("unchecked")
                    Map<String, Object> event = (Map<String, Object>) object;
                    events.add(event);
                }
                catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    if (file.getFileName().toString().endsWith(".inprogress")) {
                        // A running application's last line may be cut off.
                        return;
                    }
                    throw new IllegalArgumentException(file + ": line " + line + " is not JSON (" + e.getOriginalMessage() + "); expected a Spark event log", e);
                }
            }
        }
        catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read it as a Spark event log" + codecHint(name) + ": " + e.getMessage(), e);
        }
        if (line == 0) {
            throw new IllegalArgumentException(file + ": empty (expected a Spark event log)");
        }
    }

    private static String codecHint(String name)
    {
        for (String codec : List.of("zstd", "lz4", "snappy")) {
            if (name.endsWith("." + codec)) {
                return " compressed with " + codec;
            }
        }
        return "";
    }

    /** The file's stream, decompressed with the codec its name ends in (Spark's short codec names). */
    private static InputStream decompressed(Path file, String name)
            throws IOException
    {
        InputStream in = Files.newInputStream(file);
        if (name.endsWith(".zstd")) {
            return new ZstdInputStream(in);
        }
        if (name.endsWith(".lz4")) {
            return new LZ4BlockInputStream(in);
        }
        if (name.endsWith(".snappy")) {
            return new SnappyInputStream(in);
        }
        if (name.endsWith(".lzf")) {
            in.close();
            throw new IllegalArgumentException(file + ": compressed with lzf, which chiplet report does not read (expected plain, zstd, lz4 or snappy)");
        }
        return in;
    }

    /** The application's run, from its log's events; {@code source} names the log in errors. */
    static RunFacts run(Path source, List<Map<String, Object>> events)
    {
        String name = "";
        String id = "";
        OptionalLong started = OptionalLong.empty();
        OptionalLong ended = OptionalLong.empty();
        Map<String, RunFacts.Executor> executors = new TreeMap<>();
        Map<String, RunFacts.Placement> placement = new TreeMap<>();
        Optional<RunFacts.Settings> settings = Optional.empty();
        List<RunFacts.MeasurePoint> measurements = new ArrayList<>();
        Optional<Map<String, Object>> lastReport = Optional.empty();
        List<RunFacts.GuardAction> guard = new ArrayList<>();
        long pluginCpu = 0;
        long jobCpu = 0;
        TaskView.Builder tasks = new TaskView.Builder();
        for (Map<String, Object> event : events) {
            String type = String.valueOf(event.get("Event"));
            switch (type) {
                case "SparkListenerApplicationStart" -> {
                    name = text(event, "App Name");
                    id = text(event, "App ID");
                    started = number(event, "Timestamp");
                }
                case "SparkListenerApplicationEnd" -> ended = number(event, "Timestamp");
                case EVENTS + "ChipletTopologyEvent" -> executors.put(text(event, "executorId"), new RunFacts.Executor(text(event, "executorId"), text(event, "host"),
                        text(event, "mode"), number(event, "chiplets").orElse(0), number(event, "cores").orElse(0), number(event, "chipletL3Bytes").orElse(0),
                        Boolean.TRUE.equals(event.get("ownChiplets")), machine(source, event), cpus(source, event)));
                case EVENTS + "ChipletTasksEvent" -> {
                    String executor = text(event, "executorId");
                    for (Map<?, ?> row : rows(event, "stages")) {
                        tasks.stage((int) number(row, "stageId").orElse(0), executor, (int) number(row, "chiplet").orElse(-1), text(row, "arm"),
                                number(row, "tasks").orElse(0), number(row, "millis").orElse(0));
                    }
                    for (Map<?, ?> row : rows(event, "recent")) {
                        tasks.task(new TaskView.TaskRow((int) number(row, "stageId").orElse(0), number(row, "taskId").orElse(0), (int) number(row, "partition").orElse(0),
                                executor, (int) number(row, "chiplet").orElse(-1), text(row, "cpus"), text(row, "arm"), number(row, "millis").orElse(0),
                                Boolean.TRUE.equals(row.get("failed"))));
                    }
                }
                case EVENTS + "ChipletPlacementEvent" -> {
                    Map<String, Long> byChiplet = new TreeMap<>();
                    if (event.get("tasksByChiplet") instanceof Map<?, ?> counts) {
                        counts.forEach((chiplet, count) -> byChiplet.put(String.valueOf(chiplet), count instanceof Number n ? n.longValue() : 0L));
                    }
                    placement.put(text(event, "executorId"), new RunFacts.Placement(number(event, "tasks").orElse(0), number(event, "unplaced").orElse(0),
                            number(event, "failed").orElse(0), byChiplet));
                }
                case EVENTS + "ChipletSettingsEvent" -> settings = Optional.of(new RunFacts.Settings(text(event, "basis"),
                        event.get("settings") instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of()));
                case EVENTS + "ChipletMeasureEvent" -> {
                    Map<String, Object> report = report(source, event);
                    Map<?, ?> estimate = report.get("estimate") instanceof Map<?, ?> map ? map : Map.of();
                    measurements.add(new RunFacts.MeasurePoint(number(event, "time").orElse(0), number(event, "placedTasks").orElse(0), number(event, "controlTasks").orElse(0),
                            Boolean.TRUE.equals(event.get("placing")), real(estimate.get("speedUp")), real(estimate.get("speedUpLow")), real(estimate.get("speedUpHigh")),
                            Boolean.TRUE.equals(event.get("last"))));
                    lastReport = Optional.of(report);
                    pluginCpu = number(event, "pluginCpuNanos").orElse(0);
                    jobCpu = number(event, "jobCpuNanos").orElse(0);
                }
                case EVENTS + "ChipletGuardEvent" -> guard.add(new RunFacts.GuardAction(number(event, "time").orElse(0), Boolean.TRUE.equals(event.get("placing")), text(event, "why")));
                default -> {
                }
            }
        }
        if (id.isEmpty()) {
            throw new IllegalArgumentException(source + ": no SparkListenerApplicationStart event (expected a Spark application's event log)");
        }
        return new RunFacts(source.toString(), name, id, started, ended, List.copyOf(executors.values()), placement, settings, measurements, lastReport, guard, pluginCpu, jobCpu,
                tasks.build());
    }

    /** The executor's host picture; none in logs of plugin versions that did not write it. */
    private static Optional<MachinePicture> machine(Path source, Map<String, Object> event)
    {
        String json = text(event, "machine");
        if (json.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(MachinePicture.parse(json));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": a ChipletTopologyEvent of executor " + text(event, "executorId") + " whose machine is not a picture: " + e.getMessage());
        }
    }

    private static CpuSet cpus(Path source, Map<String, Object> event)
    {
        try {
            return CpuSet.parseList(text(event, "cpus"));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": a ChipletTopologyEvent of executor " + text(event, "executorId") + " whose cpus are " + e.getMessage());
        }
    }

    private static List<Map<?, ?>> rows(Map<String, Object> event, String field)
    {
        List<Map<?, ?>> rows = new ArrayList<>();
        if (event.get(field) instanceof List<?> list) {
            list.forEach(row -> {
                if (row instanceof Map<?, ?> map) {
                    rows.add(map);
                }
            });
        }
        return rows;
    }

    private static Map<String, Object> report(Path source, Map<String, Object> event)
    {
        try {
            return JsonValues.parseObject(text(event, "reportJson"));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": a ChipletMeasureEvent whose reportJson is " + e.getMessage());
        }
    }

    private static String text(Map<?, ?> event, String field)
    {
        Object value = event.get(field);
        return value == null ? "" : String.valueOf(value);
    }

    private static OptionalLong number(Map<?, ?> event, String field)
    {
        return event.get(field) instanceof Number number ? OptionalLong.of(number.longValue()) : OptionalLong.empty();
    }

    private static double real(Object value)
    {
        return value instanceof Number number ? number.doubleValue() : Double.NaN;
    }
}
