package io.chiplet.trino;

import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.connector.ChipletConnectorFactory;
import io.chiplet.trino.event.ChipletEventListenerFactory;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.session.ChipletSessionPropertyManagerFactory;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.Plugin;
import io.trino.spi.connector.ConnectorFactory;
import io.trino.spi.eventlistener.EventListenerFactory;
import io.trino.spi.session.SessionPropertyConfigurationManagerFactory;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * Trino's entry point for the chiplet plugin, installed as {@code plugin/chiplet/} on every node. Trino creates one
 * instance per plugin directory, so state the coordinator's parts share (the skew history) lives here.
 */
public final class ChipletTrinoPlugin
        implements Plugin
{
    private final SkewHistory skewHistory = new SkewHistory(1024);
    private final SkewEvidenceLog skewEvidence = new SkewEvidenceLog(4096);
    private final WorkerReports workerReports = new WorkerReports();
    private final QueryMeasurements measurements = new QueryMeasurements(Clock.systemUTC(), LoggerFactory.getLogger(QueryMeasurements.class));
    private final CoordinatorParts coordinatorParts = new CoordinatorParts();

    /** The history the coordinator's parts share; for tests in this package. */
    SkewHistory skewHistory()
    {
        return skewHistory;
    }

    @Override
    public Iterable<SessionPropertyConfigurationManagerFactory> getSessionPropertyConfigurationManagerFactories()
    {
        return List.of(new ChipletSessionPropertyManagerFactory(skewHistory, skewEvidence, workerReports, Clock.systemUTC(), coordinatorParts,
                measurements::countHookCpu));
    }

    @Override
    public Iterable<EventListenerFactory> getEventListenerFactories()
    {
        return List.of(new ChipletEventListenerFactory(skewHistory, skewEvidence, coordinatorParts, measurements));
    }

    @Override
    public Iterable<ConnectorFactory> getConnectorFactories()
    {
        return List.of(ChipletConnectorFactory.of(skewHistory, workerReports, coordinatorParts, measurements));
    }
}
