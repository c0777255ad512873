package io.chiplet.measure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One run's figure of a recurring application, as its history keeps it (one JSON object a line,
 * {@value #KIND}), for {@link PooledRuns}: the job's log time ratio (placed over control) with its standard error and
 * degrees of freedom, and what it rests on. The engine reads and writes the file; this is the line's format, strict
 * both ways: every field present, of its type, and none other.
 *
 * @param key what makes runs one recurring application (its name, or a key the user set)
 * @param applicationId the engine's id of the run
 * @param time when the run's figure was taken
 * @param seed the seed its arms were drawn with
 * @param logTimeRatio the log of the job's time ratio, placed over control (below 0: placement faster)
 * @param logStandardError its standard error, above 0
 * @param degreesOfFreedom its degrees of freedom, at least 1
 * @param placedClusters the placed clusters it rests on
 * @param controlClusters the control clusters
 */
public record RunRecord(String key, String applicationId, Instant time, long seed, double logTimeRatio, double logStandardError, double degreesOfFreedom,
        int placedClusters, int controlClusters)
{
    public static final String KIND = "chiplet-measure-run/1";
    private static final JsonFactory JSON = new JsonFactory();
    private static final List<String> FIELDS = List.of("kind", "key", "applicationId", "time", "seed", "speedUp", "logTimeRatio", "logStandardError",
            "degreesOfFreedom", "placedClusters", "controlClusters");

    public RunRecord
    {
        requireNonNull(key, "key is null");
        requireNonNull(applicationId, "applicationId is null");
        requireNonNull(time, "time is null");
        if (key.isBlank()) {
            throw new IllegalArgumentException("expected a non-blank key of the recurring application");
        }
        if (!Double.isFinite(logTimeRatio)) {
            throw new IllegalArgumentException("expected a finite logTimeRatio, got " + logTimeRatio);
        }
        if (!(logStandardError > 0) || !Double.isFinite(logStandardError)) {
            throw new IllegalArgumentException("expected a positive finite logStandardError, got " + logStandardError);
        }
        if (!(degreesOfFreedom >= 1) || !Double.isFinite(degreesOfFreedom)) {
            throw new IllegalArgumentException("expected degreesOfFreedom of at least 1, got " + degreesOfFreedom);
        }
        if (placedClusters < 2 || controlClusters < 2) {
            throw new IllegalArgumentException("expected at least 2 clusters of each arm, got %d placed and %d control".formatted(placedClusters, controlClusters));
        }
    }

    /** The record of a run's estimate, empty while it has none (not enough evidence, or a standard error of 0). */
    public static Optional<RunRecord> of(String key, String applicationId, Instant time, long seed, ArmEstimate estimate)
    {
        requireNonNull(estimate, "estimate is null");
        if (estimate.timeRatio().isEmpty() || !(estimate.logStandardError() > 0) || estimate.placedClusters() < 2 || estimate.controlClusters() < 2) {
            return Optional.empty();
        }
        return Optional.of(new RunRecord(key, applicationId, time, seed, Math.log(estimate.timeRatio().get().ratio()), estimate.logStandardError(),
                Math.max(1, estimate.degreesOfFreedom()), estimate.placedClusters(), estimate.controlClusters()));
    }

    /** Control over placed time: above 1 placement made the job faster. */
    public double speedUp()
    {
        return Math.exp(-logTimeRatio);
    }

    /** One line of JSON, without a line break. {@code speedUp} is written for readers and checked on parsing. */
    public String json()
    {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("kind", KIND);
            json.writeStringField("key", key);
            json.writeStringField("applicationId", applicationId);
            json.writeStringField("time", time.toString());
            json.writeNumberField("seed", seed);
            json.writeNumberField("speedUp", speedUp());
            json.writeNumberField("logTimeRatio", logTimeRatio);
            json.writeNumberField("logStandardError", logStandardError);
            json.writeNumberField("degreesOfFreedom", degreesOfFreedom);
            json.writeNumberField("placedClusters", placedClusters);
            json.writeNumberField("controlClusters", controlClusters);
            json.writeEndObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * Reads one line written by {@link #json()}.
     *
     * @param source where the line came from, for the error ("history/etl-daily.jsonl line 3")
     * @throws IllegalArgumentException naming {@code source} and what was expected, for anything else
     */
    public static RunRecord parse(String line, String source)
    {
        requireNonNull(line, "line is null");
        requireNonNull(source, "source is null");
        Map<String, Object> fields = new HashMap<>();
        try (JsonParser parser = JSON.createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw invalid(source, "expected a JSON object");
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
                if (token != JsonToken.FIELD_NAME) {
                    throw invalid(source, "expected a field name, got " + token);
                }
                String name = parser.currentName();
                if (!FIELDS.contains(name)) {
                    throw invalid(source, "unknown field '" + name + "' (expected " + String.join(", ", FIELDS) + ")");
                }
                JsonToken value = parser.nextToken();
                Object read = switch (value) {
                    case VALUE_STRING -> parser.getText();
                    case VALUE_NUMBER_INT -> parser.getLongValue();
                    case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
                    default -> throw invalid(source, "field '" + name + "': expected a string or a number, got " + value);
                };
                if (fields.put(name, read) != null) {
                    throw invalid(source, "field '" + name + "' appears twice");
                }
            }
            if (parser.nextToken() != null) {
                throw invalid(source, "expected one JSON object, found more after it");
            }
        }
        catch (IOException e) {
            throw invalid(source, "not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        String kind = string(fields, "kind", source);
        if (!kind.equals(KIND)) {
            throw invalid(source, "expected kind '" + KIND + "', got '" + kind + "'");
        }
        Instant time;
        String text = string(fields, "time", source);
        try {
            time = Instant.parse(text);
        }
        catch (DateTimeParseException e) {
            throw invalid(source, "field 'time': expected an ISO-8601 instant such as 2026-11-28T09:00:00Z, got '" + text + "'");
        }
        RunRecord record;
        try {
            record = new RunRecord(string(fields, "key", source), string(fields, "applicationId", source), time, integer(fields, "seed", source),
                    number(fields, "logTimeRatio", source), number(fields, "logStandardError", source), number(fields, "degreesOfFreedom", source),
                    Math.toIntExact(integer(fields, "placedClusters", source)), Math.toIntExact(integer(fields, "controlClusters", source)));
        }
        catch (ArithmeticException e) {
            throw invalid(source, "a cluster count beyond an int");
        }
        catch (IllegalArgumentException e) {
            if (e.getMessage().startsWith(source)) {
                throw e;
            }
            throw invalid(source, e.getMessage());
        }
        double speedUp = number(fields, "speedUp", source);
        if (Math.abs(speedUp - record.speedUp()) > 1e-9 * record.speedUp()) {
            throw invalid(source, "speedUp %s does not match logTimeRatio %s (expected %s)".formatted(speedUp, record.logTimeRatio(), record.speedUp()));
        }
        return record;
    }

    private static Object field(Map<String, Object> fields, String name, String source)
    {
        Object value = fields.get(name);
        if (value == null) {
            throw invalid(source, "missing field '" + name + "'");
        }
        return value;
    }

    private static String string(Map<String, Object> fields, String name, String source)
    {
        if (!(field(fields, name, source) instanceof String text)) {
            throw invalid(source, "field '" + name + "': expected a string, got " + fields.get(name));
        }
        return text;
    }

    private static long integer(Map<String, Object> fields, String name, String source)
    {
        if (!(field(fields, name, source) instanceof Long value)) {
            throw invalid(source, "field '" + name + "': expected a whole number, got " + fields.get(name));
        }
        return value;
    }

    private static double number(Map<String, Object> fields, String name, String source)
    {
        Object value = field(fields, name, source);
        if (value instanceof Long whole) {
            return whole;
        }
        if (value instanceof Double real) {
            return real;
        }
        throw invalid(source, "field '" + name + "': expected a number, got '" + value + "'");
    }

    private static IllegalArgumentException invalid(String source, String what)
    {
        return new IllegalArgumentException(source + ": not a " + KIND + " record: " + what);
    }
}
