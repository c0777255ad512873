package io.chiplet.trino.connector;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the catalog's handles and splits back from the JSON objects Trino sends between nodes.
 *
 * <p>Why through a map rather than a constructor: Trino's JSON mapper uses Jackson Blackbird, which replaces every
 * non-private property-based creator by generated code, defined in the creator's class loader, that calls back into
 * Blackbird's {@code CreatorOptimizer}. Trino's plugin class loader does not show that class to plugins, so a node
 * reading such a handle fails with {@code NoClassDefFoundError} (HTTP 500 on the task update), and Trino's mapper
 * may not call private creators. Delegating creators are left alone by Blackbird. Tests that install the plugin
 * with {@code installPlugin} never see this; {@code PluginZipIT}, which loads the zip through Trino's plugin class
 * loader, does.
 */
final class WireFormat
{
    private WireFormat() {}

    static Object value(Map<String, Object> json, String field)
    {
        Object value = json.get(field);
        if (value == null) {
            throw new IllegalArgumentException("chiplet handle JSON lacks field " + field + ": " + json);
        }
        return value;
    }

    static String string(Map<String, Object> json, String field)
    {
        return value(json, field).toString();
    }

    static int integer(Map<String, Object> json, String field)
    {
        return ((Number) value(json, field)).intValue();
    }

    static long longInteger(Map<String, Object> json, String field)
    {
        return ((Number) value(json, field)).longValue();
    }

    static double number(Map<String, Object> json, String field)
    {
        return ((Number) value(json, field)).doubleValue();
    }

    static RuntimeTable table(Map<String, Object> json, String field)
    {
        return RuntimeTable.valueOf(string(json, field).toUpperCase(Locale.ROOT));
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> json, String field)
    {
        return (List<Object>) value(json, field);
    }

    /** A list a split of an earlier plugin build did not carry: empty where absent. */
    @SuppressWarnings("unchecked")
    static List<Object> optionalList(Map<String, Object> json, String field)
    {
        Object value = json.get(field);
        return value == null ? List.of() : (List<Object>) value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value)
    {
        return (Map<String, Object>) value;
    }
}
