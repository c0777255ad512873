package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.chiplet.trino.skew.StageSkew;
import io.trino.spi.HostAddress;
import io.trino.spi.connector.ConnectorSplit;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One node's share of a table: a per-node table's split is addressed to its node and runs nowhere else, so each node
 * answers for itself. The {@code skew} table's one split carries the coordinator's rows, taken when the coordinator
 * made the split: the skew history lives there, and the split may then run on any node. A class rather than a record,
 * as Trino's own splits are, so that the SPI's {@code getAddresses} is the one JSON property of that name.
 */
public final class ChipletSplit
        implements ConnectorSplit
{
    private final RuntimeTable table;
    private final List<HostAddress> addresses;
    private final List<StageSkew> skew;

    @JsonCreator
    public ChipletSplit(
            @JsonProperty("table") RuntimeTable table,
            @JsonProperty("addresses") List<HostAddress> addresses,
            @JsonProperty("skew") List<StageSkew> skew)
    {
        this.table = requireNonNull(table, "table is null");
        this.addresses = List.copyOf(addresses);
        this.skew = List.copyOf(skew);
    }

    public static ChipletSplit forNode(RuntimeTable table, HostAddress node)
    {
        return new ChipletSplit(table, List.of(node), List.of());
    }

    public static ChipletSplit withSkew(List<StageSkew> skew)
    {
        return new ChipletSplit(RuntimeTable.SKEW, List.of(), skew);
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

    @JsonProperty
    public List<StageSkew> getSkew()
    {
        return skew;
    }

    @Override
    public boolean isRemotelyAccessible()
    {
        return addresses.isEmpty();
    }

    @Override
    public long getRetainedSizeInBytes()
    {
        return 64L + 64L * addresses.size() + 160L * skew.size();
    }

    @Override
    public String toString()
    {
        return "chiplet " + table.tableName() + (addresses.isEmpty() ? "" : " on " + addresses);
    }
}
