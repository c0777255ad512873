package io.chiplet.spark.messages;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.wire.Unreadable;
import io.chiplet.wire.WireFormatException;
import io.chiplet.wire.WireMessage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What executors and the driver say to each other through {@code PluginContext.ask}, as plain {@link String}s
 * encoded and decoded here in core's wire format ({@link WireMessage}, shared with the measurement's messages). Spark
 * deserializes an RPC message with a class loader that need not see the user's jars: an executor given the plugin
 * with {@code --jars} (or {@code --packages}) fetches it only after its RPC endpoint runs, so a reply of one of our
 * own classes failed there with {@code ClassNotFoundException} and cost the executor its life. A {@code String}
 * decodes everywhere. Pure.
 *
 * <p>A message of another version or kind, or a malformed one, is an {@link Unreadable} naming the message and the
 * field, never an error that could reach Spark.
 */
public final class PluginMessages
{
    static final String VERSION = WireMessage.VERSION;
    private static final String REPORT = "report";
    private static final String HINT_REQUEST = "hint-request";
    private static final String HINTS = "hints";
    private static final String COUNTS = "counts";
    private static final String TASKS = "tasks";
    private static final String LEASE_CLAIM = "lease-claim";
    private static final String LEASE_VERDICT = "lease-verdict";
    // Whether a reporting executor holds chiplets of its own or works on its host's (TopologyReport#ownChiplets).
    private static final Map<String, Boolean> OWN_CHIPLETS = Map.of("own-chiplets", true, "host-chiplets", false);
    private static final Map<String, Boolean> FIRST_ON_KERNEL = Map.of("first-on-kernel", true, "known-kernel", false);
    private static final Map<String, PlacementMode> MODES = modes();

    private PluginMessages() {}

    public static String encode(TopologyReport report)
    {
        PartitionBasis summary = report.summary();
        return WireMessage.writer(REPORT).text(report.executorId()).text(report.host()).word(report.mode().configName())
                .number(summary.chiplets()).number(summary.cores()).number(summary.coreL3Bytes()).number(summary.chipletL3Bytes())
                .word(word(OWN_CHIPLETS, report.ownChiplets())).text(report.machine()).text(report.cpus()).encode();
    }

    public static String encode(SpreadHintRequest request)
    {
        return WireMessage.writer(HINT_REQUEST).text(request.executorId()).encode();
    }

    public static String encode(PlacementCounts counts)
    {
        return WireMessage.writer(COUNTS).text(counts.executorId()).number(counts.tasks()).number(counts.unplaced()).number(counts.failed())
                .entries(counts.tasksByChiplet()).encode();
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
        return WireMessage.writer(TASKS).text(places.executorId()).raw(stages).raw(recent).encode();
    }

    private static List<TaskPlaces.StageChiplet> stageRows(WireMessage wire)
    {
        List<TaskPlaces.StageChiplet> rows = new ArrayList<>();
        String field = wire.raw(1, "stages");
        for (String row : field.isEmpty() ? new String[0] : field.split(",")) {
            String[] parts = row.split(":", -1);
            try {
                if (parts.length != 5) {
                    throw new NumberFormatException();
                }
                rows.add(new TaskPlaces.StageChiplet(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), parts[2], Long.parseLong(parts[3]), Long.parseLong(parts[4])));
            }
            catch (NumberFormatException e) {
                throw wire.malformed("stages", "comma-separated stage:chiplet:arm:tasks:millis rows", field);
            }
        }
        return rows;
    }

    private static List<TaskPlaces.TaskPlace> taskRows(WireMessage wire)
    {
        List<TaskPlaces.TaskPlace> rows = new ArrayList<>();
        String field = wire.raw(2, "recent tasks");
        for (String row : field.isEmpty() ? new String[0] : field.split(",")) {
            String[] parts = row.split(":", -1);
            try {
                if (parts.length != 8) {
                    throw new NumberFormatException();
                }
                rows.add(new TaskPlaces.TaskPlace(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]),
                        parts[4].replace(';', ','), parts[5], Long.parseLong(parts[6]), "failed".equals(parts[7])));
            }
            catch (NumberFormatException e) {
                throw wire.malformed("recent tasks", "comma-separated stage:task:partition:chiplet:cpus:arm:millis:outcome rows", field);
            }
        }
        return rows;
    }

    public static String encode(SpreadHints hints)
    {
        return WireMessage.writer(HINTS).entries(hints.chipletsByStage()).encode();
    }

    /** An executor's lease, for the driver's {@link io.chiplet.affinity.LeaseLedger}; the holder is the executor id. */
    public static String encode(LeaseClaim claim)
    {
        LeaseScope scope = claim.scope();
        return WireMessage.writer(LEASE_CLAIM).text(claim.holder()).text(scope.kernel()).text(scope.directory()).text(scope.path().toString())
                .ids(claim.chiplets()).encode();
    }

    public static String encode(LeaseVerdict verdict)
    {
        return WireMessage.writer(LEASE_VERDICT).ids(verdict.unseenChiplets()).texts(verdict.unseenHolders())
                .word(word(FIRST_ON_KERNEL, verdict.firstOnKernel())).encode();
    }

    /**
     * A {@link TopologyReport}, {@link SpreadHintRequest}, {@link SpreadHints}, {@link PlacementCounts}, {@link TaskPlaces},
     * {@link LeaseClaim}, {@link LeaseVerdict} or {@link Unreadable}.
     */
    public static Object decode(Object message)
    {
        try {
            WireMessage wire = WireMessage.parse(message);
            return switch (wire.kind()) {
                case REPORT -> {
                    wire.expect("executor", "host", "mode", "chiplets", "cores", "core L3 bytes", "chiplet L3 bytes", "own chiplets", "machine", "cpus");
                    yield new TopologyReport(wire.text(0, "executor"), wire.text(1, "host"), wire.word(2, "mode", MODES),
                            new PartitionBasis(wire.integer(3, "chiplets"), wire.integer(4, "cores"), wire.number(5, "core L3 bytes"), wire.number(6, "chiplet L3 bytes")),
                            wire.word(7, "own chiplets", OWN_CHIPLETS), wire.text(8, "machine"), wire.text(9, "cpus"));
                }
                case HINT_REQUEST -> new SpreadHintRequest(wire.expect("executor").text(0, "executor"));
                case HINTS -> {
                    Map<Integer, Integer> stages = new LinkedHashMap<>();
                    wire.expect("chiplets by stage").entries(0, "chiplets by stage").forEach((stage, chiplets) -> stages.put(stage, Math.toIntExact(chiplets)));
                    yield new SpreadHints(stages);
                }
                case COUNTS -> {
                    wire.expect("executor", "tasks", "unplaced", "failed", "tasks by chiplet");
                    yield new PlacementCounts(wire.text(0, "executor"), wire.number(1, "tasks"), wire.number(2, "unplaced"), wire.number(3, "failed"),
                            wire.entries(4, "tasks by chiplet"));
                }
                case TASKS -> {
                    wire.expect("executor", "stages", "recent tasks");
                    yield new TaskPlaces(wire.text(0, "executor"), stageRows(wire), taskRows(wire));
                }
                case LEASE_CLAIM -> {
                    wire.expect("holder", "kernel", "directory", "path", "chiplets");
                    yield new LeaseClaim(wire.text(0, "holder"), new LeaseScope(wire.text(1, "kernel"), wire.text(2, "directory"), Path.of(wire.text(3, "path"))),
                            wire.ids(4, "chiplets"));
                }
                case LEASE_VERDICT -> {
                    wire.expect("unseen chiplets", "unseen holders", "first on kernel");
                    yield new LeaseVerdict(wire.ids(0, "unseen chiplets"), wire.texts(1, "unseen holders"), wire.word(2, "first on kernel", FIRST_ON_KERNEL));
                }
                default -> new Unreadable("unknown kind '" + wire.kind() + "' of a " + VERSION + " message");
            };
        }
        catch (WireFormatException e) {
            return e.unreadable();
        }
        catch (RuntimeException e) {
            // a record refusing what the fields hold (a negative count, an invalid path): the message is malformed
            return new Unreadable("malformed " + kindOf(message) + " message (" + e.getMessage() + ")");
        }
    }

    private static String kindOf(Object message)
    {
        String[] parts = String.valueOf(message).split("\t", 3);
        return parts.length > 1 ? parts[1] : "chiplet";
    }

    private static String word(Map<String, Boolean> words, boolean value)
    {
        return words.entrySet().stream().filter(entry -> entry.getValue() == value).map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    private static Map<String, PlacementMode> modes()
    {
        Map<String, PlacementMode> modes = new LinkedHashMap<>();
        for (PlacementMode mode : PlacementMode.values()) {
            modes.put(mode.configName(), mode);
        }
        return Map.copyOf(modes);
    }
}
