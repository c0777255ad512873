package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/** A column by name and its position in the table's rows. */
public record ChipletColumnHandle(@JsonProperty("name") String name, @JsonProperty("index") int index)
        implements ColumnHandle
{
    public ChipletColumnHandle
    {
        requireNonNull(name, "name is null");
    }

    /** Read back through a map on purpose: see {@link WireFormat}. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static ChipletColumnHandle fromJson(Map<String, Object> json)
    {
        return new ChipletColumnHandle(WireFormat.string(json, "name"), WireFormat.integer(json, "index"));
    }
}
