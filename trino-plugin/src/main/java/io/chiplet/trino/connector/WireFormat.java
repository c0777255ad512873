package io.chiplet.trino.connector;

import io.chiplet.wire.WireObject;

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
 *
 * <p>The reads are core's ({@link WireObject}, the wire codec the Spark plugin's messages use too): each names the
 * message and field it could not read.
 */
final class WireFormat
{
    private static final String MESSAGE = "chiplet split or handle";

    private WireFormat() {}

    static Object value(Map<String, Object> json, String field)
    {
        return WireObject.value(MESSAGE, json, field);
    }

    static String string(Map<String, Object> json, String field)
    {
        return WireObject.string(MESSAGE, json, field);
    }

    static int integer(Map<String, Object> json, String field)
    {
        return WireObject.integer(MESSAGE, json, field);
    }

    static long longInteger(Map<String, Object> json, String field)
    {
        return WireObject.longInteger(MESSAGE, json, field);
    }

    static double number(Map<String, Object> json, String field)
    {
        return WireObject.number(MESSAGE, json, field);
    }

    static boolean bool(Map<String, Object> json, String field)
    {
        return WireObject.bool(MESSAGE, json, field);
    }

    static RuntimeTable table(Map<String, Object> json, String field)
    {
        return RuntimeTable.valueOf(string(json, field).toUpperCase(Locale.ROOT));
    }

    static List<Object> list(Map<String, Object> json, String field)
    {
        return WireObject.list(MESSAGE, json, field);
    }

    /** A list a split of an earlier plugin build did not carry: empty where absent. */
    static List<Object> optionalList(Map<String, Object> json, String field)
    {
        return WireObject.optionalList(MESSAGE, json, field);
    }

    static Map<String, Object> object(Object value)
    {
        return WireObject.object(MESSAGE, value);
    }
}
