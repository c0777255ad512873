package io.chiplet.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON documents as plain maps, lists, strings, numbers and booleans (JSON null as null), read with jackson-core alone. */
public final class JsonValues
{
    private static final JsonFactory JSON = new JsonFactory();

    private JsonValues() {}

    /** A JSON object; an {@link IllegalArgumentException} saying what is wrong where {@code json} is none. */
    public static Map<String, Object> parseObject(String json)
    {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() == JsonToken.START_OBJECT && value(parser) instanceof Map<?, ?> object) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) object;
                return typed;
            }
            throw new IllegalArgumentException("expected a JSON object");
        }
        catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON (" + e.getOriginalMessage() + ")", e);
        }
        catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    /** The value at the parser's current token. */
    public static Object value(JsonParser parser)
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
}
