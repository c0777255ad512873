package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.github.luben.zstd.ZstdInputStream;
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
import java.util.LinkedHashMap;
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
                    if (parser.nextToken() != JsonToken.START_OBJECT || !(value(parser) instanceof Map<?, ?> object) || !object.containsKey("Event")) {
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

    /** The JSON value at the parser's current token, as maps, lists, strings, numbers and booleans (JSON null as null). */
    static Object value(JsonParser parser)
            throws IOException
    {
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT -> {
                Map<String, Object> object = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    parser.nextToken();
                    object.put(field, value(parser));
                }
                return object;
            }
            case START_ARRAY -> {
                List<Object> array = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(parser));
                }
                return array;
            }
            case VALUE_STRING -> {
                return parser.getText();
            }
            case VALUE_NUMBER_INT -> {
                return parser.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return parser.getDoubleValue();
            }
            case VALUE_TRUE -> {
                return true;
            }
            case VALUE_FALSE -> {
                return false;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected JSON token " + token);
        }
    }

    /** A JSON document (the measurement's report, carried as a string in its event) as maps and lists. */
    static Map<String, Object> parseObject(String json)
    {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() == JsonToken.START_OBJECT && value(parser) instanceof Map<?, ?> object) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) object;
                return typed;
            }
            throw new IllegalArgumentException("expected a JSON object");
        }
        catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }
}
