package io.chiplet.trino.connector;

import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.guard.CoordinatorParts;
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
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.FixedSplitSource;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One split per node that runs tasks ({@link NodeManager#getWorkerNodes()}: the coordinator too where it is
 * scheduled), addressed to it, for the per-node tables; one split carrying the coordinator's skew history for
 * {@code skew}. Runs on the coordinator. Without a node manager (a catalog that failed to start because the running
 * Trino would not give one) a per-node table is one split that any node answers.
 */
final class ChipletSplitManager
        implements ConnectorSplitManager
{
    private final Optional<NodeManager> nodeManager;
    private final SkewHistory skewHistory;
    private final QueryMeasurements measurements;
    private final CoordinatorParts parts;

    ChipletSplitManager(Optional<NodeManager> nodeManager, SkewHistory skewHistory, CoordinatorParts parts, QueryMeasurements measurements)
    {
        this.parts = requireNonNull(parts, "parts is null");
        this.nodeManager = requireNonNull(nodeManager, "nodeManager is null");
        this.skewHistory = requireNonNull(skewHistory, "skewHistory is null");
        this.measurements = requireNonNull(measurements, "measurements is null");
    }

    /**
     * The SPI's {@code getSplits} from 476 to 481; 482 replaced it with the one below. Both are here so one build serves
     * every release; neither uses the filter or the columns. The {@code @Override} also keeps the build honest: against
     * an SPI of 482 or later this does not compile, so the main code cannot silently compile against the newest SPI.
     */
    @Override
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            DynamicFilter dynamicFilter, Constraint constraint)
    {
        return splits(tableHandle);
    }

    /** The SPI's abstract {@code getSplits} from Trino 482 on (absent from 476, so not marked as overriding). */
    public ConnectorSplitSource getSplits(ConnectorTransactionHandle transaction, ConnectorSession session, ConnectorTableHandle tableHandle,
            Set<ColumnHandle> columns, Constraint constraint)
    {
        return splits(tableHandle);
    }

    private ConnectorSplitSource splits(ConnectorTableHandle tableHandle)
    {
        return new FixedSplitSource(splits(((ChipletTableHandle) tableHandle).table()));
    }

    List<ChipletSplit> splits(RuntimeTable table)
    {
        if (table == RuntimeTable.MEASUREMENT) {
            return List.of(ChipletSplit.withMeasurement(measurements.rows()));
        }
        if (table == RuntimeTable.COORDINATOR) {
            return List.of(ChipletSplit.withParts(parts.current()));
        }
        if (!table.perNode()) {
            return List.of(ChipletSplit.withSkew(skewHistory.recent()));
        }
        if (nodeManager.isEmpty()) {
            return List.of(ChipletSplit.anyNode(table));
        }
        var schedule = measurements.schedule();
        return nodeManager.get().getWorkerNodes().stream()
                .sorted(Comparator.comparing(Node::getNodeIdentifier))
                .map(node -> ChipletSplit.forNode(table, node.getHostAndPort()).withSchedule(schedule))
                .toList();
    }
}
