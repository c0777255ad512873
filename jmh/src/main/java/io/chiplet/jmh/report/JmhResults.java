package io.chiplet.jmh.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/** Reads the file JMH writes with {@code -rf json}: an array of result rows. */
public final class JmhResults
{
    private static final JsonFactory JSON = new JsonFactory();

    private JmhResults() {}

    /**
     * @throws IllegalArgumentException naming the file and what was expected when it is not a JMH JSON result
     * @throws UncheckedIOException when it cannot be read
     */
    public static List<JmhResult> read(Path file)
    {
        requireNonNull(file, "file is null");
        try (JsonParser parser = JSON.createParser(file.toFile())) {
            Object root = readValue(parser, parser.nextToken());
            if (!(root instanceof List<?> rows)) {
                throw new IllegalArgumentException(file + ": expected JMH's JSON result, an array of benchmark rows, but found " + describe(root));
            }
            List<JmhResult> results = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                results.add(toResult(rows.get(i), file + " row " + i));
            }
            return List.copyOf(results);
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static JmhResult toResult(Object row, String where)
    {
        Map<?, ?> object = object(row, where);
        Map<?, ?> primary = object(object.get("primaryMetric"), where + " primaryMetric");
        Map<String, String> params = new LinkedHashMap<>();
        if (object.get("params") instanceof Map<?, ?> given) {
            given.forEach((key, value) -> params.put(key.toString(), String.valueOf(value)));
        }
        Map<String, Double> secondary = new LinkedHashMap<>();
        if (object.get("secondaryMetrics") instanceof Map<?, ?> metrics) {
            metrics.forEach((key, value) -> {
                if (value instanceof Map<?, ?> metric && metric.get("score") instanceof Number score) {
                    secondary.put(key.toString(), score.doubleValue());
                }
            });
        }
        return new JmhResult(
                string(object.get("benchmark"), where + " benchmark"),
                string(object.get("mode"), where + " mode"),
                object.get("threads") instanceof Number threads ? threads.intValue() : 1,
                params,
                number(primary.get("score"), where + " primaryMetric.score"),
                primary.get("scoreError") instanceof Number error ? error.doubleValue() : Double.NaN,
                string(primary.get("scoreUnit"), where + " primaryMetric.scoreUnit"),
                secondary);
    }

    /** A JSON value as Map (insertion-ordered), List, String, Double, Boolean or {@code null}. */
    private static Object readValue(JsonParser parser, JsonToken token)
            throws IOException
    {
        if (token == null) {
            throw new JsonProcessingException("unexpected end of input", parser.currentLocation()) {};
        }
        return switch (token) {
            case START_OBJECT -> {
                Map<String, Object> object = new LinkedHashMap<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
                    String name = parser.currentName();
                    object.put(name, readValue(parser, parser.nextToken()));
                }
                yield object;
            }
            case START_ARRAY -> {
                List<Object> array = new ArrayList<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    array.add(readValue(parser, next));
                }
                yield array;
            }
            case VALUE_STRING -> nonFiniteOrString(parser.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw new JsonProcessingException("unexpected " + token, parser.currentLocation()) {};
        };
    }

    /** JMH writes NaN and infinite scores as the strings "NaN", "Infinity", "-Infinity". */
    private static Object nonFiniteOrString(String text)
    {
        return switch (text) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> text;
        };
    }

    private static Map<?, ?> object(Object value, String where)
    {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new IllegalArgumentException(where + ": expected an object but found " + describe(value));
    }

    private static String string(Object value, String where)
    {
        if (value instanceof String text) {
            return text;
        }
        throw new IllegalArgumentException(where + ": expected a string but found " + describe(value));
    }

    private static double number(Object value, String where)
    {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        throw new IllegalArgumentException(where + ": expected a number but found " + describe(value));
    }

    private static String describe(Object value)
    {
        return switch (value) {
            case null -> "null";
            case Map<?, ?> ignored -> "an object";
            case List<?> ignored -> "an array";
            case String text -> "the string \"" + text + "\"";
            default -> value.toString();
        };
    }
}
