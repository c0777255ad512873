package io.chiplet.trino.session;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static java.util.Objects.requireNonNull;

/**
 * Reads the session property rules file of Trino's built-in {@code file} manager: a JSON array of objects with the
 * optional fields {@code user}, {@code source}, {@code group} (regular expressions), {@code queryType},
 * {@code clientTags} (array), {@code sessionProperties} and {@code catalogSessionProperties}. As there, an unknown
 * field is an error rather than a rule silently applied to everyone. Streaming jackson-core, which the plugin already
 * has, rather than jackson-databind for one small file.
 */
public final class SessionRulesParser
{
    private static final JsonFactory JSON = new JsonFactory();
    private static final List<String> FIELDS = List.of("user", "source", "queryType", "clientTags", "group", "sessionProperties", "catalogSessionProperties");

    private SessionRulesParser() {}

    /**
     * @param name the file's name, for messages
     * @throws IllegalArgumentException naming the file, line and column and what was expected
     */
    public static SessionRules parse(String json, String name)
    {
        requireNonNull(json, "json is null");
        requireNonNull(name, "name is null");
        try (JsonParser parser = JSON.createParser(json)) {
            expect(parser, parser.nextToken(), JsonToken.START_ARRAY, name, "an array of rules");
            List<SessionRule> rules = new ArrayList<>();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                rules.add(rule(parser, name));
            }
            if (parser.nextToken() != null) {
                throw problem(parser, name, "nothing after the array of rules");
            }
            return new SessionRules(rules);
        }
        catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            throw new IllegalArgumentException("%s:%d:%d: not valid JSON: %s".formatted(
                    name, location == null ? 0 : location.getLineNr(), location == null ? 0 : location.getColumnNr(), e.getOriginalMessage()), e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SessionRule rule(JsonParser parser, String name)
            throws IOException
    {
        expect(parser, parser.currentToken(), JsonToken.START_OBJECT, name, "a rule object");
        Optional<Pattern> user = Optional.empty();
        Optional<Pattern> source = Optional.empty();
        Optional<Pattern> group = Optional.empty();
        Optional<String> queryType = Optional.empty();
        Set<String> clientTags = Set.of();
        Map<String, String> sessionProperties = Map.of();
        Map<String, Map<String, String>> catalogSessionProperties = Map.of();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            if (!FIELDS.contains(field)) {
                throw problem(parser, name, "one of the fields " + String.join(", ", FIELDS) + ", but found '" + field + "'");
            }
            parser.nextToken();
            switch (field) {
                case "user" -> user = Optional.of(pattern(parser, name, field));
                case "source" -> source = Optional.of(pattern(parser, name, field));
                case "group" -> group = Optional.of(pattern(parser, name, field));
                case "queryType" -> queryType = Optional.of(text(parser, name, field));
                case "clientTags" -> clientTags = strings(parser, name, field);
                case "sessionProperties" -> sessionProperties = properties(parser, name, field);
                case "catalogSessionProperties" -> catalogSessionProperties = catalogs(parser, name);
                default -> throw new IllegalStateException("field not handled: " + field);
            }
        }
        return new SessionRule(user, source, clientTags, queryType, group, sessionProperties, catalogSessionProperties);
    }

    private static Pattern pattern(JsonParser parser, String name, String field)
            throws IOException
    {
        String regex = text(parser, name, field);
        try {
            return Pattern.compile(regex);
        }
        catch (PatternSyntaxException e) {
            throw problem(parser, name, field + " to be a regular expression: " + e.getDescription() + " in '" + regex + "'");
        }
    }

    /** A string; numbers and booleans are taken as written, as Trino's manager does. */
    private static String text(JsonParser parser, String name, String field)
            throws IOException
    {
        if (!parser.currentToken().isScalarValue() || parser.currentToken() == JsonToken.VALUE_NULL) {
            throw problem(parser, name, field + " to be a string");
        }
        return parser.getText();
    }

    private static Set<String> strings(JsonParser parser, String name, String field)
            throws IOException
    {
        expect(parser, parser.currentToken(), JsonToken.START_ARRAY, name, field + " to be an array of strings");
        Set<String> values = new LinkedHashSet<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            values.add(text(parser, name, field));
        }
        return values;
    }

    private static Map<String, String> properties(JsonParser parser, String name, String field)
            throws IOException
    {
        expect(parser, parser.currentToken(), JsonToken.START_OBJECT, name, field + " to be an object of property names to values");
        Map<String, String> values = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String property = parser.currentName();
            parser.nextToken();
            values.put(property, text(parser, name, field + "." + property));
        }
        return values;
    }

    private static Map<String, Map<String, String>> catalogs(JsonParser parser, String name)
            throws IOException
    {
        String field = "catalogSessionProperties";
        expect(parser, parser.currentToken(), JsonToken.START_OBJECT, name, field + " to be an object of catalog names to properties");
        Map<String, Map<String, String>> values = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String catalog = parser.currentName();
            parser.nextToken();
            values.put(catalog, properties(parser, name, field + "." + catalog));
        }
        return values;
    }

    private static void expect(JsonParser parser, JsonToken actual, JsonToken expected, String name, String what)
    {
        if (actual != expected) {
            throw problem(parser, name, what);
        }
    }

    private static IllegalArgumentException problem(JsonParser parser, String name, String expected)
    {
        JsonLocation location = parser.currentTokenLocation();
        return new IllegalArgumentException("%s:%d:%d: expected %s".formatted(name, location.getLineNr(), location.getColumnNr(), expected));
    }
}
