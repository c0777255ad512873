package io.chiplet.spark.messages;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What executors and the driver say to each other through {@code PluginContext.ask}, as plain {@link String}s
 * encoded and decoded here. Spark deserializes an RPC message with a class loader that need not see the user's
 * jars: an executor given the plugin with {@code --jars} (or {@code --packages}) fetches it only after its RPC
 * endpoint runs, so a reply of one of our own classes failed there with {@code ClassNotFoundException} and cost the
 * executor its life. A {@code String} decodes everywhere. Pure.
 *
 * <p>Format: tab-separated fields, the first {@value #VERSION}, the second the kind; text fields are
 * URL-encoded. A message of another version or kind is {@link Unreadable}, never an error that could reach Spark.
 */
public final class PluginMessages
{
    static final String VERSION = "chiplet/1";
    private static final String REPORT = "report";
    private static final String HINT_REQUEST = "hint-request";
    private static final String HINTS = "hints";
    private static final String COUNTS = "counts";
    // Whether a reporting executor holds chiplets of its own or works on its host's (TopologyReport#ownChiplets).
    private static final String OWN_CHIPLETS = "own-chiplets";
    private static final String HOST_CHIPLETS = "host-chiplets";

    private PluginMessages() {}

    /** A message this version cannot read: another plugin version's, or not ours at all. */
    public record Unreadable(String why) {}

    public static String encode(TopologyReport report)
    {
        PartitionBasis summary = report.summary();
        return String.join("\t", VERSION, REPORT, text(report.executorId()), text(report.host()), report.mode().configName(),
                Integer.toString(summary.chiplets()), Integer.toString(summary.cores()), Long.toString(summary.coreL3Bytes()), Long.toString(summary.chipletL3Bytes()),
                report.ownChiplets() ? OWN_CHIPLETS : HOST_CHIPLETS);
    }

    public static String encode(SpreadHintRequest request)
    {
        return String.join("\t", VERSION, HINT_REQUEST, text(request.executorId()));
    }

    public static String encode(PlacementCounts counts)
    {
        StringBuilder chiplets = new StringBuilder();
        new java.util.TreeMap<>(counts.tasksByChiplet()).forEach((chiplet, tasks) -> chiplets.append(chiplets.length() == 0 ? "" : ",").append(chiplet).append(':').append(tasks));
        return String.join("\t", VERSION, COUNTS, text(counts.executorId()), Long.toString(counts.tasks()), Long.toString(counts.unplaced()),
                Long.toString(counts.failed()), chiplets.toString());
    }

    public static String encode(SpreadHints hints)
    {
        StringBuilder stages = new StringBuilder();
        new java.util.TreeMap<>(hints.chipletsByStage()).forEach((stage, chiplets) -> stages.append(stages.length() == 0 ? "" : ",").append(stage).append(':').append(chiplets));
        return String.join("\t", VERSION, HINTS, stages.toString());
    }

    /** A {@link TopologyReport}, {@link SpreadHintRequest}, {@link SpreadHints}, {@link PlacementCounts} or {@link Unreadable}. */
    public static Object decode(Object message)
    {
        if (!(message instanceof String text)) {
            return new Unreadable("not a chiplet plugin message: " + (message == null ? "null" : message.getClass().getName()));
        }
        String[] fields = text.split("\t", -1);
        if (fields.length < 2 || !fields[0].equals(VERSION)) {
            return new Unreadable("not a " + VERSION + " message: " + abbreviate(text));
        }
        try {
            switch (fields[1]) {
                case REPORT:
                    expect(fields, 10, text);
                    PlacementMode mode = PlacementMode.fromConfigName(fields[4]).orElseThrow(() -> new IllegalArgumentException("unknown mode " + fields[4]));
                    return new TopologyReport(untext(fields[2]), untext(fields[3]), mode,
                            new PartitionBasis(Integer.parseInt(fields[5]), Integer.parseInt(fields[6]), Long.parseLong(fields[7]), Long.parseLong(fields[8])),
                            ownChiplets(fields[9]));
                case HINT_REQUEST:
                    expect(fields, 3, text);
                    return new SpreadHintRequest(untext(fields[2]));
                case HINTS:
                    expect(fields, 3, text);
                    Map<Integer, Integer> stages = new LinkedHashMap<>();
                    if (!fields[2].isEmpty()) {
                        for (String entry : fields[2].split(",")) {
                            String[] pair = entry.split(":");
                            expect(pair, 2, text);
                            stages.put(Integer.parseInt(pair[0]), Integer.parseInt(pair[1]));
                        }
                    }
                    return new SpreadHints(stages);
                case COUNTS:
                    expect(fields, 7, text);
                    Map<Integer, Long> byChiplet = new LinkedHashMap<>();
                    if (!fields[6].isEmpty()) {
                        for (String entry : fields[6].split(",")) {
                            String[] pair = entry.split(":");
                            expect(pair, 2, text);
                            byChiplet.put(Integer.parseInt(pair[0]), Long.parseLong(pair[1]));
                        }
                    }
                    return new PlacementCounts(untext(fields[2]), Long.parseLong(fields[3]), Long.parseLong(fields[4]), Long.parseLong(fields[5]), byChiplet);
                default:
                    return new Unreadable("unknown kind '" + fields[1] + "': " + abbreviate(text));
            }
        }
        catch (IllegalArgumentException e) {
            return new Unreadable("malformed " + fields[1] + " (" + e.getMessage() + "): " + abbreviate(text));
        }
    }

    private static boolean ownChiplets(String field)
    {
        return switch (field) {
            case OWN_CHIPLETS -> true;
            case HOST_CHIPLETS -> false;
            default -> throw new IllegalArgumentException("expected " + OWN_CHIPLETS + " or " + HOST_CHIPLETS + " but was " + field);
        };
    }

    private static void expect(String[] fields, int count, String text)
    {
        if (fields.length != count) {
            throw new IllegalArgumentException("expected " + count + " fields, got " + fields.length);
        }
    }

    private static String text(String value)
    {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String untext(String value)
    {
        return URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private static String abbreviate(String text)
    {
        String oneLine = text.replace('\t', ' ');
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 120) + "...";
    }
}
