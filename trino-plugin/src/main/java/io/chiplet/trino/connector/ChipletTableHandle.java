package io.chiplet.trino.connector;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;

import static java.util.Objects.requireNonNull;

public record ChipletTableHandle(@JsonProperty("table") RuntimeTable table)
        implements ConnectorTableHandle
{
    public ChipletTableHandle
    {
        requireNonNull(table, "table is null");
    }
}
