package io.chiplet.trino.connector;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.airlift.json.ObjectMapperProvider;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.trino.spi.HostAddress;
import org.junit.jupiter.api.Test;

import java.util.List;

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
    void handlesRoundTrip()
            throws Exception
    {
        ChipletTableHandle table = new ChipletTableHandle(RuntimeTable.ADAPTATION);
        assertThat(mapper.readValue(mapper.writeValueAsString(table), ChipletTableHandle.class)).isEqualTo(table);
        ChipletColumnHandle column = new ChipletColumnHandle("remote_access_rate", 3);
        assertThat(mapper.readValue(mapper.writeValueAsString(column), ChipletColumnHandle.class)).isEqualTo(column);
    }
}
