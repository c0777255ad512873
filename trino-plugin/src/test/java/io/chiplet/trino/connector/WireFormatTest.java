package io.chiplet.trino.connector;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.json.ObjectMapperProvider;
import io.chiplet.measure.Directive;
import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.measure.WindowSchedule;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.spi.HostAddress;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The handles and splits survive the trip between nodes through a mapper configured as Trino's. */
class WireFormatTest
{
    private final ObjectMapper mapper = new ObjectMapperProvider().get();

    @Test
    void splitsRoundTrip()
            throws Exception
    {
        ChipletSplit node = ChipletSplit.forNode(RuntimeTable.PLACEMENT, HostAddress.fromParts("10.0.0.7", 8080));
        ChipletSplit read = mapper.readValue(mapper.writeValueAsString(node), ChipletSplit.class);
        assertThat(read.getTable()).isEqualTo(RuntimeTable.PLACEMENT);
        assertThat(read.getAddresses()).containsExactly(HostAddress.fromParts("10.0.0.7", 8080));
        assertThat(read.isRemotelyAccessible()).isFalse();

        CompletedStageSkew stage = new CompletedStageSkew("20261123_120000_00001_abcde", "etl", 3, 8, 60_175, 27.2, 2.5, 0.6, "spread");
        ChipletSplit skew = mapper.readValue(mapper.writeValueAsString(ChipletSplit.withSkew(List.of(stage))), ChipletSplit.class);
        assertThat(skew.getTable()).isEqualTo(RuntimeTable.SKEW);
        assertThat(skew.isRemotelyAccessible()).isTrue();
        assertThat(skew.getSkew()).containsExactly(stage);
    }

    @Test
    void theScheduleAndTheMeasurementRowsRoundTrip()
            throws Exception
    {
        WindowSchedule schedule = WindowSchedule.starting(1764170000000L, -7, 30_000, new Directive(0.1, true), 58_805_668)
                .with(new Directive(0.025, true), 58_805_700)
                .with(new Directive(0, false), 58_805_800);
        ChipletSplit node = ChipletSplit.forNode(RuntimeTable.WINDOWS, HostAddress.fromParts("10.0.0.7", 8080)).withSchedule(Optional.of(schedule));
        ChipletSplit read = mapper.readValue(mapper.writeValueAsString(node), ChipletSplit.class);
        assertThat(read.getSchedule()).contains(schedule);
        assertThat(read.getAddresses()).containsExactly(HostAddress.fromParts("10.0.0.7", 8080));
        assertThat(mapper.readValue(mapper.writeValueAsString(ChipletSplit.forNode(RuntimeTable.STATUS, HostAddress.fromParts("a", 1))), ChipletSplit.class)
                .getSchedule()).isEmpty();

        QueryMeasurements.ShapeRow overall = new QueryMeasurements.ShapeRow("overall", "", 40, 22, Optional.of(0.81), Optional.of(0.78), Optional.of(0.84),
                "placed slower", 7, 0, false, Optional.of(0.0004));
        QueryMeasurements.ShapeRow shape = new QueryMeasurements.ShapeRow("3f0c9a1e5b7d2c44", "SELECT 1", 3, 2, Optional.empty(), Optional.empty(),
                Optional.empty(), "not enough evidence yet", 0, 0.5, true, Optional.empty());
        ChipletSplit measurement = mapper.readValue(mapper.writeValueAsString(ChipletSplit.withMeasurement(List.of(overall, shape))), ChipletSplit.class);
        assertThat(measurement.getTable()).isEqualTo(RuntimeTable.MEASUREMENT);
        assertThat(measurement.isRemotelyAccessible()).isTrue();
        assertThat(measurement.getMeasurementRows()).containsExactly(
                Arrays.asList("overall", "", 40L, 22L, 0.81, 0.78, 0.84, "placed slower", 7L, 0.0, false, 0.0004),
                Arrays.asList("3f0c9a1e5b7d2c44", "SELECT 1", 3L, 2L, null, null, null, "not enough evidence yet", 0L, 0.5, true, null));
    }

    @Test
    void handlesRoundTrip()
            throws Exception
    {
        ChipletTableHandle table = new ChipletTableHandle(RuntimeTable.ADAPTATION);
        assertThat(mapper.readValue(mapper.writeValueAsString(table), ChipletTableHandle.class)).isEqualTo(table);
        ChipletColumnHandle column = new ChipletColumnHandle("remote_access_rate", 3);
        assertThat(mapper.readValue(mapper.writeValueAsString(column), ChipletColumnHandle.class)).isEqualTo(column);
    }

    @Test
    void aSplitThatDoesNotReadNamesTheMessageAndField()
    {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChipletSplit.fromJson(java.util.Map.of("table", "placement")))
                .isInstanceOf(io.chiplet.wire.WireFormatException.class)
                .hasMessageStartingWith("malformed chiplet split or handle (no field addresses)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChipletColumnHandle.fromJson(java.util.Map.of("name", "x", "index", "three")))
                .hasMessageStartingWith("malformed chiplet split or handle (field index: expected a whole number, got 'three')");
    }
}
