package io.chiplet.wire;

import java.util.List;
import java.util.Map;

/**
 * A message that travels as a JSON object, read back through the engine's own mapper into a map (Trino's handles and
 * splits: see the Trino plugin's {@code WireFormat} for why through a map): the same typed reads as
 * {@link WireMessage}, each naming the message and the field in its error. JSON numbers keep their value, so a control
 * share read here is exactly the one written.
 */
public final class WireObject
{
    private WireObject() {}

    public static Object value(String message, Map<String, Object> json, String field)
    {
        Object value = json.get(field);
        if (value == null) {
            throw new WireFormatException("malformed " + message + " (no field " + field + "): " + abbreviate(json));
        }
        return value;
    }

    public static String string(String message, Map<String, Object> json, String field)
    {
        return value(message, json, field).toString();
    }

    public static int integer(String message, Map<String, Object> json, String field)
    {
        long value = longInteger(message, json, field);
        if (value != (int) value) {
            throw malformed(message, json, field, "a whole number within int");
        }
        return (int) value;
    }

    public static long longInteger(String message, Map<String, Object> json, String field)
    {
        if (!(value(message, json, field) instanceof Number number) || number.doubleValue() != number.longValue()) {
            throw malformed(message, json, field, "a whole number");
        }
        return number.longValue();
    }

    public static double number(String message, Map<String, Object> json, String field)
    {
        if (!(value(message, json, field) instanceof Number number)) {
            throw malformed(message, json, field, "a number");
        }
        return number.doubleValue();
    }

    public static boolean bool(String message, Map<String, Object> json, String field)
    {
        if (!(value(message, json, field) instanceof Boolean value)) {
            throw malformed(message, json, field, "true or false");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(String message, Map<String, Object> json, String field)
    {
        if (!(value(message, json, field) instanceof List<?> list)) {
            throw malformed(message, json, field, "a list");
        }
        return (List<Object>) list;
    }

    /** A list an earlier plugin build did not carry: empty where absent. */
    public static List<Object> optionalList(String message, Map<String, Object> json, String field)
    {
        return json.get(field) == null ? List.of() : list(message, json, field);
    }

    /** A JSON object nested in a list or field, as the map the mapper made of it. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String message, Object value)
    {
        if (!(value instanceof Map<?, ?> map)) {
            throw new WireFormatException("malformed " + message + " (expected a JSON object, got '" + value + "')");
        }
        return (Map<String, Object>) map;
    }

    private static WireFormatException malformed(String message, Map<String, Object> json, String field, String expected)
    {
        return new WireFormatException("malformed " + message + " (field " + field + ": expected " + expected + ", got '" + json.get(field) + "'): " + abbreviate(json));
    }

    private static String abbreviate(Map<String, Object> json)
    {
        String text = json.toString();
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
