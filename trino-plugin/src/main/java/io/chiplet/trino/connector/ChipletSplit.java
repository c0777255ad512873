package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.chiplet.trino.measure.QueryMeasurements.ShapeRow;
import io.chiplet.trino.measure.WindowSchedule;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.spi.HostAddress;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One node's share of a table: a per-node table's split is addressed to its node and runs nowhere else, so each node
 * answers for itself. The {@code skew} table's one split carries the coordinator's rows, taken when the coordinator
 * made the split: the skew history lives there, and the split may then run on any node. A class rather than a record,
 * as Trino's own splits are, so that the SPI's {@code getAddresses} is the one JSON property of that name.
 * It is read back through a map: see {@link WireFormat}.
 *
 * <p>Every per-node split also carries the coordinator's measurement schedule, where it has one: this is how the
 * schedule reaches the workers (the coordinator's catalog runs a query of {@code runtime.windows} when it changes),
 * and any other query of a per-node table brings it too. The {@code measurement} table's one split carries the
 * coordinator's figures.
 */
public final class ChipletSplit
        implements ConnectorSplit
{
    private final RuntimeTable table;
    private final List<HostAddress> addresses;
    private final List<SkewRow> skew;
    private final List<ScheduleWire> schedule;
    private final List<MeasurementWire> measurement;
    private final List<PartRow> parts;

    private ChipletSplit(RuntimeTable table, List<HostAddress> addresses, List<SkewRow> skew, List<PartRow> parts, List<ScheduleWire> schedule,
            List<MeasurementWire> measurement)
    {
        this.table = requireNonNull(table, "table is null");
        this.addresses = List.copyOf(addresses);
        this.skew = List.copyOf(skew);
        this.parts = List.copyOf(parts);
        this.schedule = List.copyOf(schedule);
        this.measurement = List.copyOf(measurement);
    }

    private ChipletSplit(RuntimeTable table, List<HostAddress> addresses, List<SkewRow> skew, List<PartRow> parts)
    {
        this(table, addresses, skew, parts, List.of(), List.of());
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChipletSplit fromJson(Map<String, Object> json)
    {
        return new ChipletSplit(
                WireFormat.table(json, "table"),
                WireFormat.list(json, "addresses").stream().map(address -> HostAddress.fromString(address.toString())).toList(),
                WireFormat.list(json, "skew").stream().map(row -> SkewRow.fromJson(WireFormat.object(row))).toList(),
                WireFormat.list(json, "parts").stream().map(row -> PartRow.fromJson(WireFormat.object(row))).toList(),
                WireFormat.optionalList(json, "schedule").stream().map(row -> ScheduleWire.fromJson(WireFormat.object(row))).toList(),
                WireFormat.optionalList(json, "measurement").stream().map(row -> MeasurementWire.fromJson(WireFormat.object(row))).toList());
    }

    /** This split carrying the coordinator's schedule for the node to follow. */
    public ChipletSplit withSchedule(Optional<WindowSchedule> coordinatorSchedule)
    {
        return new ChipletSplit(table, addresses, skew, parts, coordinatorSchedule.map(ScheduleWire::of).stream().toList(), measurement);
    }

    public static ChipletSplit withMeasurement(List<ShapeRow> rows)
    {
        return new ChipletSplit(RuntimeTable.MEASUREMENT, List.of(), List.of(), List.of(), List.of(), rows.stream().map(MeasurementWire::of).toList());
    }

    @JsonProperty("schedule")
    public List<ScheduleWire> getScheduleWire()
    {
        return schedule;
    }

    @JsonProperty("measurement")
    public List<MeasurementWire> getMeasurementWire()
    {
        return measurement;
    }

    /** The coordinator's schedule, where the split carries one. */
    public Optional<WindowSchedule> getSchedule()
    {
        return schedule.stream().findFirst().map(ScheduleWire::toSchedule);
    }

    /** The coordinator's measurement rows ({@code measurement} table). */
    public List<List<Object>> getMeasurementRows()
    {
        return measurement.stream().map(MeasurementWire::toRow).toList();
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
        return 64L + 64L * addresses.size() + 160L * skew.size() + 256L * parts.size() + 1200L * schedule.size() + 200L * measurement.size();
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
                    WireFormat.string(json, "hint"), WireFormat.string(json, "queryShape"), WireFormat.bool(json, "evidence"));
        }

        CompletedStageSkew toStageSkew()
        {
            return new CompletedStageSkew(queryId, source, stageId, tasks, inputRows, maxOverMedian, maxToMean, gini, hint, queryShape, evidence);
        }
    }

    /** A {@link WindowSchedule} on the wire. */
    public record ScheduleWire(
            @JsonProperty("epoch") long epoch,
            @JsonProperty("version") long version,
            @JsonProperty("seed") long seed,
            @JsonProperty("windowMillis") long windowMillis,
            @JsonProperty("fromWindows") List<Long> fromWindows,
            @JsonProperty("controlShares") List<Double> controlShares,
            @JsonProperty("placing") List<Boolean> placing)
    {
        static ScheduleWire of(WindowSchedule schedule)
        {
            return new ScheduleWire(schedule.epoch(), schedule.version(), schedule.seed(), schedule.windowMillis(),
                    schedule.entries().stream().map(WindowSchedule.Entry::fromWindow).toList(),
                    schedule.entries().stream().map(WindowSchedule.Entry::controlShare).toList(),
                    schedule.entries().stream().map(WindowSchedule.Entry::placing).toList());
        }

        static ScheduleWire fromJson(Map<String, Object> json)
        {
            return new ScheduleWire(WireFormat.longInteger(json, "epoch"), WireFormat.longInteger(json, "version"), WireFormat.longInteger(json, "seed"),
                    WireFormat.longInteger(json, "windowMillis"),
                    WireFormat.list(json, "fromWindows").stream().map(value -> ((Number) value).longValue()).toList(),
                    WireFormat.list(json, "controlShares").stream().map(value -> ((Number) value).doubleValue()).toList(),
                    WireFormat.list(json, "placing").stream().map(value -> (Boolean) value).toList());
        }

        WindowSchedule toSchedule()
        {
            List<WindowSchedule.Entry> entries = new java.util.ArrayList<>();
            for (int i = 0; i < fromWindows.size(); i++) {
                entries.add(new WindowSchedule.Entry(fromWindows.get(i), controlShares.get(i), placing.get(i)));
            }
            return new WindowSchedule(epoch, version, seed, windowMillis, entries);
        }
    }

    /** A row of the coordinator's {@code measurement} table on the wire; a figure not there yet is NaN with its flag false. */
    public record MeasurementWire(
            @JsonProperty("shape") String shape,
            @JsonProperty("text") String text,
            @JsonProperty("placed") long placed,
            @JsonProperty("control") long control,
            @JsonProperty("enough") boolean enough,
            @JsonProperty("speedUp") double speedUp,
            @JsonProperty("speedUpLow") double speedUpLow,
            @JsonProperty("speedUpHigh") double speedUpHigh,
            @JsonProperty("verdict") String verdict,
            @JsonProperty("leftOut") long leftOut,
            @JsonProperty("controlShare") double controlShare,
            @JsonProperty("placing") boolean placing,
            @JsonProperty("hasPluginCpuShare") boolean hasPluginCpuShare,
            @JsonProperty("pluginCpuShare") double pluginCpuShare)
    {
        static MeasurementWire of(ShapeRow row)
        {
            return new MeasurementWire(row.shape(), row.text(), row.placed(), row.control(), row.speedUp().isPresent(), row.speedUp().orElse(0.0),
                    row.speedUpLow().orElse(0.0), row.speedUpHigh().orElse(0.0), row.verdict(), row.leftOut(), row.controlShare(), row.placing(),
                    row.pluginCpuShare().isPresent(), row.pluginCpuShare().orElse(0.0));
        }

        static MeasurementWire fromJson(Map<String, Object> json)
        {
            return new MeasurementWire(WireFormat.string(json, "shape"), WireFormat.string(json, "text"), WireFormat.longInteger(json, "placed"),
                    WireFormat.longInteger(json, "control"), WireFormat.bool(json, "enough"), WireFormat.number(json, "speedUp"),
                    WireFormat.number(json, "speedUpLow"), WireFormat.number(json, "speedUpHigh"), WireFormat.string(json, "verdict"),
                    WireFormat.longInteger(json, "leftOut"), WireFormat.number(json, "controlShare"), WireFormat.bool(json, "placing"),
                    WireFormat.bool(json, "hasPluginCpuShare"), WireFormat.number(json, "pluginCpuShare"));
        }

        List<Object> toRow()
        {
            return java.util.Arrays.asList(shape, text, placed, control, enough ? speedUp : null, enough ? speedUpLow : null, enough ? speedUpHigh : null,
                    verdict, leftOut, controlShare, placing, hasPluginCpuShare ? pluginCpuShare : null);
        }
    }
}
