package io.chiplet.trino.connector;

import io.trino.spi.connector.ConnectorTransactionHandle;

/** The tables are read-only views of live state: one transaction handle serves every query. */
public enum ChipletTransactionHandle
        implements ConnectorTransactionHandle
{
    INSTANCE
}
