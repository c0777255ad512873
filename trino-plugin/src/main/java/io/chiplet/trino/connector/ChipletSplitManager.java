package io.chiplet.trino.connector;

import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.FixedSplitSource;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One split per node that runs tasks ({@link NodeManager#getWorkerNodes()}: the coordinator too where it is
 * scheduled), addressed to it, for the per-node tables; one split carrying the coordinator's skew history for
 * {@code skew}. Runs on the coordinator.
 */
final class ChipletSplitManager
        implements ConnectorSplitManager
{
    private final NodeManager nodeManager;
    private final SkewHistory skewHistory;

    ChipletSplitManager(NodeManager nodeManager, SkewHistory skewHistory)
    {
        this.nodeManager = requireNonNull(nodeManager, "nodeManager is null");
        this.skewHistory = requireNonNull(skewHistory, "skewHistory is null");
    }

    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            Set<ColumnHandle> columns, Constraint constraint)
    {
        RuntimeTable table = ((ChipletTableHandle) tableHandle).table();
        if (!table.perNode()) {
            return new FixedSplitSource(ChipletSplit.withSkew(skewHistory.recent()));
        }
        List<ChipletSplit> splits = nodeManager.getWorkerNodes().stream()
                .sorted(Comparator.comparing(Node::getNodeIdentifier))
                .map(node -> ChipletSplit.forNode(table, node.getHostAndPort()))
                .toList();
        return new FixedSplitSource(splits);
    }
}
