package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.spi.HostAddress;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One node's share of a table: a per-node table's split is addressed to its node and runs nowhere else, so each node
 * answers for itself. The {@code skew} table's one split carries the coordinator's rows, taken when the coordinator
 * made the split: the skew history lives there, and the split may then run on any node. A class rather than a record,
 * as Trino's own splits are, so that the SPI's {@code getAddresses} is the one JSON property of that name.
 * It is read back through a map: see {@link WireFormat}.
 */
public final class ChipletSplit
        implements ConnectorSplit
{
    private final RuntimeTable table;
    private final List<HostAddress> addresses;
    private final List<SkewRow> skew;
    private final List<PartRow> parts;

    private ChipletSplit(RuntimeTable table, List<HostAddress> addresses, List<SkewRow> skew, List<PartRow> parts)
    {
        this.table = requireNonNull(table, "table is null");
        this.addresses = List.copyOf(addresses);
        this.skew = List.copyOf(skew);
        this.parts = List.copyOf(parts);
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChipletSplit fromJson(Map<String, Object> json)
    {
        return new ChipletSplit(
                WireFormat.table(json, "table"),
                WireFormat.list(json, "addresses").stream().map(address -> HostAddress.fromString(address.toString())).toList(),
                WireFormat.list(json, "skew").stream().map(row -> SkewRow.fromJson(WireFormat.object(row))).toList(),
                WireFormat.list(json, "parts").stream().map(row -> PartRow.fromJson(WireFormat.object(row))).toList());
    }

    public static ChipletSplit forNode(RuntimeTable table, HostAddress node)
    {
        return new ChipletSplit(table, List.of(node), List.of(), List.of());
    }

    /** A per-node table's split that whichever node runs it answers: for a catalog that does not know the nodes. */
    public static ChipletSplit anyNode(RuntimeTable table)
    {
        return new ChipletSplit(table, List.of(), List.of(), List.of());
    }

    public static ChipletSplit withSkew(List<CompletedStageSkew> skew)
    {
        return new ChipletSplit(RuntimeTable.SKEW, List.of(), skew.stream().map(SkewRow::of).toList(), List.of());
    }

    /** The {@code coordinator} table's split: the coordinator's parts as they were when it made the split. */
    public static ChipletSplit withParts(List<CoordinatorParts.PartState> parts)
    {
        return new ChipletSplit(RuntimeTable.COORDINATOR, List.of(), List.of(), parts.stream().map(PartRow::of).toList());
    }

    @JsonProperty
    public RuntimeTable getTable()
    {
        return table;
    }

    @JsonProperty
    @Override
    public List<HostAddress> getAddresses()
    {
        return addresses;
    }

    @JsonProperty("skew")
    public List<SkewRow> getSkewRows()
    {
        return skew;
    }

    public List<CompletedStageSkew> getSkew()
    {
        return skew.stream().map(SkewRow::toStageSkew).toList();
    }

    @JsonProperty("parts")
    public List<PartRow> getPartRows()
    {
        return parts;
    }

    @Override
    public boolean isRemotelyAccessible()
    {
        return addresses.isEmpty();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return 64L + 64L * addresses.size() + 160L * skew.size() + 256L * parts.size();
    }

    @Override
    public String toString()
    {
        return "chiplet " + table.tableName() + (addresses.isEmpty() ? "" : " on " + addresses);
    }

    /** A {@link CoordinatorParts.PartState} on the wire. */
    public record PartRow(@JsonProperty("part") String part, @JsonProperty("state") String state, @JsonProperty("detail") String detail)
    {
        static PartRow of(CoordinatorParts.PartState state)
        {
            return new PartRow(state.part(), state.state(), state.detail());
        }

        static PartRow fromJson(Map<String, Object> json)
        {
            return new PartRow(WireFormat.string(json, "part"), WireFormat.string(json, "state"), WireFormat.string(json, "detail"));
        }
    }

    /** A {@link CompletedStageSkew} on the wire. */
    public record SkewRow(
            @JsonProperty("queryId") String queryId,
            @JsonProperty("source") String source,
            @JsonProperty("stageId") int stageId,
            @JsonProperty("tasks") int tasks,
            @JsonProperty("inputRows") long inputRows,
            @JsonProperty("maxOverMedian") double maxOverMedian,
            @JsonProperty("maxToMean") double maxToMean,
            @JsonProperty("gini") double gini,
            @JsonProperty("hint") String hint,
            @JsonProperty("queryShape") String queryShape,
            @JsonProperty("evidence") boolean evidence)
    {
        static SkewRow of(CompletedStageSkew stage)
        {
            return new SkewRow(stage.queryId(), stage.source(), stage.stageId(), stage.tasks(), stage.inputRows(), stage.maxOverMedian(),
                    stage.maxToMean(), stage.gini(), stage.hint(), stage.queryShape(), stage.evidence());
        }

        static SkewRow fromJson(Map<String, Object> json)
        {
            return new SkewRow(WireFormat.string(json, "queryId"), WireFormat.string(json, "source"), WireFormat.integer(json, "stageId"),
                    WireFormat.integer(json, "tasks"), WireFormat.longInteger(json, "inputRows"), WireFormat.number(json, "maxOverMedian"),
                    WireFormat.number(json, "maxToMean"), WireFormat.number(json, "gini"),
                    WireFormat.string(json, "hint"), WireFormat.string(json, "queryShape"), (Boolean) WireFormat.value(json, "evidence"));
        }

        CompletedStageSkew toStageSkew()
        {
            return new CompletedStageSkew(queryId, source, stageId, tasks, inputRows, maxOverMedian, maxToMean, gini, hint, queryShape, evidence);
        }
    }
}
