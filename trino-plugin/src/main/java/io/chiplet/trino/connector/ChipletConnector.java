package io.chiplet.trino.connector;

import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorRecordSetProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.transaction.IsolationLevel;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The chiplet catalog on one node: schema {@code runtime} with the node's state, and, through {@link NodeRuntime},
 * the node's share of the JVM's placement agent, which {@link #shutdown()} releases (every pinned thread restored,
 * the chiplet leases given back). Where the catalog could not start ({@link FailedCatalog}) it is the same tables
 * with nothing placed and the cause in {@code status}.
 */
public final class ChipletConnector
        implements Connector
{
    private final CatalogState state;
    private final ChipletMetadata metadata = new ChipletMetadata();
    private final ChipletSplitManager splitManager;
    private final ChipletRecordSetProvider recordSetProvider;
    private final Optional<WorkerReportCollector> reportCollector;
    private final Optional<SchedulePublisher> schedulePublisher;
    private final QueryMeasurements measurements;
    private final List<Runnable> atShutdown = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param nodeManager the cluster's nodes; empty where the running Trino would not give them
     * @param reportCollector on the coordinator, what collects the workers' reports; closed with the catalog
     */
    ChipletConnector(CatalogState state, Optional<NodeManager> nodeManager, SkewHistory skewHistory, CoordinatorParts parts,
            Optional<WorkerReportCollector> reportCollector)
    {
        this(state, nodeManager, skewHistory, parts, new QueryMeasurements(java.time.Clock.systemUTC(), org.slf4j.LoggerFactory.getLogger(ChipletConnector.class)),
                reportCollector, Optional.empty());
    }

    /**
     * @param measurements the coordinator's in-place measurement (its schedule rides on the per-node splits)
     * @param schedulePublisher on the coordinator whose catalog measures, what publishes the schedule; closed with the
     *         catalog, which also stops the measurement
     */
    ChipletConnector(CatalogState state, Optional<NodeManager> nodeManager, SkewHistory skewHistory, CoordinatorParts parts, QueryMeasurements measurements,
            Optional<WorkerReportCollector> reportCollector, Optional<SchedulePublisher> schedulePublisher)
    {
        this.state = requireNonNull(state, "state is null");
        this.reportCollector = requireNonNull(reportCollector, "reportCollector is null");
        this.schedulePublisher = requireNonNull(schedulePublisher, "schedulePublisher is null");
        this.measurements = requireNonNull(measurements, "measurements is null");
        this.splitManager = new ChipletSplitManager(nodeManager, skewHistory, parts, measurements);
        this.recordSetProvider = new ChipletRecordSetProvider(state);
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

    /** Something of the catalog's to undo at its shutdown, first (its JMX beans). */
    void alsoAtShutdown(Runnable action)
    {
        atShutdown.add(requireNonNull(action, "action is null"));
    }

    @Override
    public void shutdown()
    {
        atShutdown.forEach(Runnable::run);
        reportCollector.ifPresent(WorkerReportCollector::close);
        schedulePublisher.ifPresent(publisher -> {
            publisher.close();
            measurements.stop();
        });
        state.close();
    }
}
