package io.chiplet.trino.connector;

import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorRecordSetProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.transaction.IsolationLevel;

import static java.util.Objects.requireNonNull;

/**
 * The chiplet catalog on one node: schema {@code runtime} with the node's state, and, through {@link NodeRuntime},
 * the node's share of the JVM's placement agent, which {@link #shutdown()} releases (every pinned thread restored,
 * the chiplet leases given back).
 */
public final class ChipletConnector
        implements Connector
{
    private final NodeRuntime runtime;
    private final ChipletMetadata metadata = new ChipletMetadata();
    private final ChipletSplitManager splitManager;
    private final ChipletRecordSetProvider recordSetProvider;

    public ChipletConnector(NodeRuntime runtime, NodeManager nodeManager, SkewHistory skewHistory)
    {
        this.runtime = requireNonNull(runtime, "runtime is null");
        this.splitManager = new ChipletSplitManager(nodeManager, skewHistory);
        this.recordSetProvider = new ChipletRecordSetProvider(runtime);
    }

    public NodeRuntime runtime()
    {
        return runtime;
    }

    @Override
    public ConnectorTransactionHandle beginTransaction(IsolationLevel isolationLevel, boolean readOnly, boolean autoCommit)
    {
        return ChipletTransactionHandle.INSTANCE;
    }

    @Override
    public ConnectorMetadata getMetadata(ConnectorSession session, ConnectorTransactionHandle transaction)
    {
        return metadata;
    }

    @Override
    public ConnectorSplitManager getSplitManager()
    {
        return splitManager;
    }

    @Override
    public ConnectorRecordSetProvider getRecordSetProvider()
    {
        return recordSetProvider;
    }

    @Override
    public void shutdown()
    {
        runtime.close();
    }
}
