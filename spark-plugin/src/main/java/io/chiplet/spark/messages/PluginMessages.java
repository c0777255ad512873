package io.chiplet.spark.messages;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.wire.Unreadable;
import io.chiplet.wire.WireFormatException;
import io.chiplet.wire.WireMessage;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

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
                .word(word(OWN_CHIPLETS, report.ownChiplets())).encode();
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
     * A {@link TopologyReport}, {@link SpreadHintRequest}, {@link SpreadHints}, {@link PlacementCounts},
     * {@link LeaseClaim}, {@link LeaseVerdict} or {@link Unreadable}.
     */
    public static Object decode(Object message)
    {
        try {
            WireMessage wire = WireMessage.parse(message);
            return switch (wire.kind()) {
                case REPORT -> {
                    wire.expect("executor", "host", "mode", "chiplets", "cores", "core L3 bytes", "chiplet L3 bytes", "own chiplets");
                    yield new TopologyReport(wire.text(0, "executor"), wire.text(1, "host"), wire.word(2, "mode", MODES),
                            new PartitionBasis(wire.integer(3, "chiplets"), wire.integer(4, "cores"), wire.number(5, "core L3 bytes"), wire.number(6, "chiplet L3 bytes")),
                            wire.word(7, "own chiplets", OWN_CHIPLETS));
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
