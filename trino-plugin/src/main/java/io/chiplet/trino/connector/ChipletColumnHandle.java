package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;

import static java.util.Objects.requireNonNull;

/** A column by name and its position in the table's rows. */
public record ChipletColumnHandle(@JsonProperty("name") String name, @JsonProperty("index") int index)
        implements ColumnHandle
{
    public ChipletColumnHandle
    {
        requireNonNull(name, "name is null");
    }
}
