package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;

import java.util.Map;

import static java.util.Objects.requireNonNull;

public record ChipletTableHandle(@JsonProperty("table") RuntimeTable table)
        implements ConnectorTableHandle
{
    public ChipletTableHandle
    {
        requireNonNull(table, "table is null");
    }

    /** Read back through a map on purpose: see {@link WireFormat}. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChipletTableHandle fromJson(Map<String, Object> json)
    {
        return new ChipletTableHandle(WireFormat.table(json, "table"));
    }
}
