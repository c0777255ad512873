package io.chiplet.spark.messages;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

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
    private static final String TASKS = "tasks";
    private static final String LEASE_CLAIM = "lease-claim";
    private static final String LEASE_VERDICT = "lease-verdict";
    private static final String FIRST_ON_KERNEL = "first-on-kernel";
    private static final String KNOWN_KERNEL = "known-kernel";
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
                report.ownChiplets() ? OWN_CHIPLETS : HOST_CHIPLETS, text(report.machine()), text(report.cpus()));
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

    /** Rows {@code stage:chiplet:arm:tasks:millis} and {@code stage:task:partition:chiplet:cpus:arm:millis:failed}, comma-separated (cpus with {@code ;} for {@code ,}). */
    public static String encode(TaskPlaces places)
    {
        String stages = places.stages().stream()
                .map(row -> row.stageId() + ":" + row.chiplet() + ":" + row.arm() + ":" + row.tasks() + ":" + row.millis())
                .collect(Collectors.joining(","));
        String recent = places.recent().stream()
                .map(task -> task.stageId() + ":" + task.taskId() + ":" + task.partition() + ":" + task.chiplet() + ":" + task.cpus().replace(',', ';') + ":" + task.arm()
                        + ":" + task.millis() + ":" + (task.failed() ? "failed" : "ok"))
                .collect(Collectors.joining(","));
        return String.join("\t", VERSION, TASKS, text(places.executorId()), stages, recent);
    }

    public static String encode(SpreadHints hints)
    {
        StringBuilder stages = new StringBuilder();
        new java.util.TreeMap<>(hints.chipletsByStage()).forEach((stage, chiplets) -> stages.append(stages.length() == 0 ? "" : ",").append(stage).append(':').append(chiplets));
        return String.join("\t", VERSION, HINTS, stages.toString());
    }

    /** An executor's lease, for the driver's {@link io.chiplet.affinity.LeaseLedger}; the holder is the executor id. */
    public static String encode(LeaseClaim claim)
    {
        LeaseScope scope = claim.scope();
        return String.join("\t", VERSION, LEASE_CLAIM, text(claim.holder()), text(scope.kernel()), text(scope.directory()), text(scope.path().toString()),
                ids(claim.chiplets()));
    }

    public static String encode(LeaseVerdict verdict)
    {
        return String.join("\t", VERSION, LEASE_VERDICT, ids(verdict.unseenChiplets()),
                verdict.unseenHolders().stream().map(PluginMessages::text).collect(Collectors.joining(",")),
                verdict.firstOnKernel() ? FIRST_ON_KERNEL : KNOWN_KERNEL);
    }

    /**
     * A {@link TopologyReport}, {@link SpreadHintRequest}, {@link SpreadHints}, {@link PlacementCounts}, {@link TaskPlaces},
     * {@link LeaseClaim}, {@link LeaseVerdict} or {@link Unreadable}.
     */
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
                    // 10 fields from a plugin without the host's picture: the picture stays empty.
                    if (fields.length != 10) {
                        expect(fields, 12, text);
                    }
                    PlacementMode mode = PlacementMode.fromConfigName(fields[4]).orElseThrow(() -> new IllegalArgumentException("unknown mode " + fields[4]));
                    return new TopologyReport(untext(fields[2]), untext(fields[3]), mode,
                            new PartitionBasis(Integer.parseInt(fields[5]), Integer.parseInt(fields[6]), Long.parseLong(fields[7]), Long.parseLong(fields[8])),
                            ownChiplets(fields[9]), fields.length == 12 ? untext(fields[10]) : "", fields.length == 12 ? untext(fields[11]) : "");
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
                case TASKS:
                    expect(fields, 5, text);
                    java.util.List<TaskPlaces.StageChiplet> stageRows = new java.util.ArrayList<>();
                    for (String row : fields[3].isEmpty() ? new String[0] : fields[3].split(",")) {
                        String[] parts = row.split(":", -1);
                        expect(parts, 5, text);
                        stageRows.add(new TaskPlaces.StageChiplet(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), parts[2], Long.parseLong(parts[3]), Long.parseLong(parts[4])));
                    }
                    java.util.List<TaskPlaces.TaskPlace> taskRows = new java.util.ArrayList<>();
                    for (String row : fields[4].isEmpty() ? new String[0] : fields[4].split(",")) {
                        String[] parts = row.split(":", -1);
                        expect(parts, 8, text);
                        taskRows.add(new TaskPlaces.TaskPlace(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]),
                                parts[4].replace(';', ','), parts[5], Long.parseLong(parts[6]), "failed".equals(parts[7])));
                    }
                    return new TaskPlaces(untext(fields[2]), stageRows, taskRows);
                case LEASE_CLAIM:
                    expect(fields, 7, text);
                    return new LeaseClaim(untext(fields[2]), new LeaseScope(untext(fields[3]), untext(fields[4]), Path.of(untext(fields[5]))), parseIds(fields[6]));
                case LEASE_VERDICT:
                    expect(fields, 5, text);
                    SortedSet<String> holders = fields[3].isEmpty() ? new TreeSet<>()
                            : Arrays.stream(fields[3].split(",")).map(PluginMessages::untext).collect(Collectors.toCollection(TreeSet::new));
                    return new LeaseVerdict(parseIds(fields[2]), holders, switch (fields[4]) {
                        case FIRST_ON_KERNEL -> true;
                        case KNOWN_KERNEL -> false;
                        default -> throw new IllegalArgumentException("expected " + FIRST_ON_KERNEL + " or " + KNOWN_KERNEL + " but was " + fields[4]);
                    });
                default:
                    return new Unreadable("unknown kind '" + fields[1] + "': " + abbreviate(text));
            }
        }
        catch (IllegalArgumentException e) {
            return new Unreadable("malformed " + fields[1] + " (" + e.getMessage() + "): " + abbreviate(text));
        }
    }

    private static String ids(SortedSet<Integer> ids)
    {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static SortedSet<Integer> parseIds(String field)
    {
        return field.isEmpty() ? new TreeSet<>() : Arrays.stream(field.split(",")).map(Integer::parseInt).collect(Collectors.toCollection(TreeSet::new));
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
