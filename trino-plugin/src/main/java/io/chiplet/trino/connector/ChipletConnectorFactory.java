package io.chiplet.trino.connector;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.ReportDirectory;
import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.guard.SpiMembers;
import io.chiplet.trino.measure.MeasureKeys;
import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.HostAddress;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorContext;
import io.trino.spi.connector.ConnectorFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * {@code connector.name=chiplet}: Trino creates the catalog on every node, which makes it the worker-side hook for
 * thread placement. Creation never fails, whatever the settings, the machine, the JVM or the Trino release: a
 * failure before the {@link NodeRuntime} started (which absorbs its own) leaves a {@link FailedCatalog}, whose
 * {@code status} row says why nothing is placed.
 *
 * <p>The node's identity: Trino 483's {@code ConnectorContext.getCurrentNode()} where the running SPI has it, else
 * {@code NodeManager.getCurrentNode()}, which every supported release (476 on) has.
 */
public final class ChipletConnectorFactory
        implements ConnectorFactory
{
    public static final String NAME = "chiplet";

    private static final Logger log = LoggerFactory.getLogger(ChipletConnectorFactory.class);

    /** {@code ConnectorContext.getCurrentNode()}, added after SPI 476. */
    static final Optional<MethodHandle> CONTEXT_CURRENT_NODE =
            SpiMembers.instanceMethod(ConnectorContext.class, "getCurrentNode", MethodType.methodType(Node.class));

    /** Starts a node's runtime; {@link NodeRuntime#start} but in tests. */
    @FunctionalInterface
    interface RuntimeStarter
    {
        CatalogState start(String catalog, String node, Map<String, String> properties, TaskRole role);
    }

    /**
     * What the factory works with: the state every catalog of the plugin shares, and how it finds its node and starts
     * its runtime.
     *
     * @param contextCurrentNode {@link #CONTEXT_CURRENT_NODE}, or none where a test has a Trino without it
     * @param starter {@link NodeRuntime#start}, or a test's
     */
    record Collaborators(SkewHistory skewHistory, WorkerReports workerReports, CoordinatorParts parts, QueryMeasurements measurements,
            Optional<MethodHandle> contextCurrentNode, RuntimeStarter starter)
    {
        Collaborators
        {
            requireNonNull(skewHistory, "skewHistory is null");
            requireNonNull(workerReports, "workerReports is null");
            requireNonNull(parts, "parts is null");
            requireNonNull(measurements, "measurements is null");
            requireNonNull(contextCurrentNode, "contextCurrentNode is null");
            requireNonNull(starter, "starter is null");
        }
    }

    private final SkewHistory skewHistory;
    private final WorkerReports workerReports;
    private final QueryMeasurements measurements;
    private final CoordinatorParts parts;
    private final Optional<MethodHandle> contextCurrentNode;
    private final RuntimeStarter starter;

    ChipletConnectorFactory(Collaborators collaborators)
    {
        requireNonNull(collaborators, "collaborators is null");
        this.parts = collaborators.parts();
        this.skewHistory = collaborators.skewHistory();
        this.workerReports = collaborators.workerReports();
        this.measurements = collaborators.measurements();
        this.contextCurrentNode = collaborators.contextCurrentNode();
        this.starter = collaborators.starter();
    }

    /** The plugin's factory: its catalogs share these, find their node through the running SPI and start a {@link NodeRuntime}. */
    public static ChipletConnectorFactory of(SkewHistory skewHistory, WorkerReports workerReports, CoordinatorParts parts, QueryMeasurements measurements)
    {
        return new ChipletConnectorFactory(new Collaborators(skewHistory, workerReports, parts, measurements, CONTEXT_CURRENT_NODE, NodeRuntime::start));
    }

    /** A factory of its own reports, parts and measurements, for tests of one catalog. */
    static ChipletConnectorFactory forTests(SkewHistory skewHistory, Optional<MethodHandle> contextCurrentNode, RuntimeStarter starter)
    {
        return new ChipletConnectorFactory(new Collaborators(skewHistory, new WorkerReports(), new CoordinatorParts(), new QueryMeasurements(Clock.systemUTC(), log),
                contextCurrentNode, starter));
    }

    @Override
    public String getName()
    {
        return NAME;
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        requireNonNull(catalogName, "catalogName is null");
        requireNonNull(config, "config is null");
        requireNonNull(context, "context is null");
        Optional<NodeManager> nodeManager = nodeManager(context);
        String node = "unknown";
        Optional<CatalogState> started = Optional.empty();
        try {
            Node current = currentNode(context, nodeManager);
            node = current.getNodeIdentifier();
            started = Optional.of(starter.start(catalogName, node, config, taskRole(current, nodeManager)));
            Optional<WorkerReportCollector> collector = reportCollector(catalogName, current, nodeManager);
            Optional<SchedulePublisher> publisher = measurement(catalogName, config, current, nodeManager);
            ChipletConnector connector = new ChipletConnector(started.get(), nodeManager, skewHistory, parts, measurements, collector, publisher);
            // The figures where Trino's JMX connector and scrapers look; the measurement where this catalog measures.
            CatalogBeans beans = CatalogBeans.register(catalogName, started.get(), publisher.map(ignored -> measurements));
            connector.alsoAtShutdown(beans::close);
            return connector;
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            // Started but not handed to Trino: nobody else would stop its agent and restore the threads it pinned.
            started.ifPresent(ChipletConnectorFactory::closeQuietly);
            String cause = "the chiplet catalog failed to start: " + e;
            log.warn("Chiplet catalog {} on node {}: no thread placement, Trino runs as without it: {}", catalogName, node, cause);
            log.debug("Chiplet catalog failed to start", e);
            FailedCatalog failed = new FailedCatalog(catalogName, node, cause);
            ChipletConnector connector = new ChipletConnector(failed, nodeManager, skewHistory, parts, measurements, Optional.empty(), Optional.empty());
            connector.alsoAtShutdown(CatalogBeans.register(catalogName, failed, Optional.empty())::close);
            return connector;
        }
    }

    /**
     * On the coordinator, the first chiplet catalog collects the workers' reports for the session defaults; nowhere
     * else. A failure to start it costs the session defaults their worker figures, never the catalog.
     */
    private Optional<WorkerReportCollector> reportCollector(String catalog, Node current, Optional<NodeManager> nodeManager)
    {
        if (!current.isCoordinator() || nodeManager.isEmpty() || !workerReports.claimCollection()) {
            return Optional.empty();
        }
        try {
            HostAddress address = current.getHostAndPort();
            URI uri = URI.create("http://" + address.getHostText() + ":" + address.getPort());
            WorkerReportCollector collector = new WorkerReportCollector(catalog, nodeManager.get(), new LoopbackStatements(uri), workerReports, parts, Clock.systemUTC());
            collector.start();
            return Optional.of(collector);
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            workerReports.releaseCollection();
            parts.report(CoordinatorParts.WORKER_REPORTS, CoordinatorParts.OFF, "cannot collect them: " + e);
            log.warn("Chiplet catalog {} on the coordinator: cannot collect the workers' topology reports, session defaults keep Trino's own task_concurrency: {}",
                    catalog, e.toString());
            return Optional.empty();
        }
    }

    /**
     * On the coordinator, the first chiplet catalog measures placement in place (issue 23) with its settings and
     * publishes the schedule to the workers; nowhere else. A bad setting or a failure costs the measurement (one
     * warning), never the catalog or the placement.
     */
    private Optional<SchedulePublisher> measurement(String catalog, Map<String, String> config, Node current, Optional<NodeManager> nodeManager)
    {
        if (!current.isCoordinator() || nodeManager.isEmpty()) {
            return Optional.empty();
        }
        MeasureSettings settings;
        try {
            settings = MeasureKeys.parse(config);
        }
        catch (InvalidSettingException e) {
            log.warn("Chiplet catalog {} on the coordinator: no in-place measurement, placement as configured: {}", catalog, e.getMessage());
            return Optional.empty();
        }
        SchedulePublisher publisher = null;
        try {
            HostAddress address = current.getHostAndPort();
            URI uri = URI.create("http://" + address.getHostText() + ":" + address.getPort());
            publisher = new SchedulePublisher(catalog, nodeManager.get(), new LoopbackStatements(uri, SchedulePublisher.SOURCE), measurements);
            SchedulePublisher started = publisher;
            if (!measurements.start(catalog, settings, new SecureRandom().nextLong(), started::publishSoon)) {
                return Optional.empty();
            }
            if (!settings.enabled()) {
                log.info("Chiplet catalog {} on the coordinator: {}=false, placement is not measured", catalog, MeasureKeys.ENABLED);
                return Optional.empty();
            }
            publisher.start(settings.window());
            // Found now, not when the first report is due; the JMX beans and runtime tables have the figures either way.
            settings.reportDirectory().flatMap(ReportDirectory::problem).ifPresent(problem -> log.warn(
                    "Chiplet catalog {} on the coordinator cannot write its measurement report ({}): {}; the figures are still in {}.runtime.measurement and JMX",
                    catalog, MeasureKeys.REPORT_DIR, problem, catalog));
            log.info("Chiplet catalog {} on the coordinator: measures placement in place, switchback windows of {} ms, control share {}, guard {}{}", catalog,
                    settings.window().toMillis(), settings.controlShare(), settings.guard().configName(),
                    settings.reportDirectory().map(directory -> ", reports in " + directory).orElse(""));
            return Optional.of(publisher);
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            if (publisher != null) {
                publisher.close();
            }
            measurements.stop();
            log.warn("Chiplet catalog {} on the coordinator: no in-place measurement, placement as configured: {}", catalog, e.toString());
            return Optional.empty();
        }
    }

    /** Whether this node runs tasks; a failure to tell is taken as no, with one warning (placing nothing is Trino's own way). */
    private static TaskRole taskRole(Node current, Optional<NodeManager> nodeManager)
    {
        try {
            return TaskRole.of(current, nodeManager);
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            log.warn("Chiplet catalog on node {}: cannot tell whether this node runs tasks, so it places nothing: {}", current.getNodeIdentifier(), e.toString());
            return TaskRole.of(true, Optional.empty());
        }
    }

    private static void closeQuietly(CatalogState state)
    {
        try {
            state.close();
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            log.debug("Closing a chiplet catalog that failed to start failed", e);
        }
    }

    private static Optional<NodeManager> nodeManager(ConnectorContext context)
    {
        try {
            return Optional.of(context.getNodeManager());
        }
        catch (Throwable e) {
            // An SPI that no longer offers it (UnsupportedOperationException from its default, or the member gone).
            FailOpenSwitch.rethrowIfFatal(e);
            log.debug("ConnectorContext.getNodeManager() failed", e);
            return Optional.empty();
        }
    }

    /** This node: through the newer SPI's direct accessor where present and usable, else through the node manager. */
    Node currentNode(ConnectorContext context, Optional<NodeManager> nodeManager)
            throws Throwable
    {
        Throwable failure = null;
        if (contextCurrentNode.isPresent()) {
            try {
                return requireNonNull((Node) contextCurrentNode.get().invoke(context), "ConnectorContext.getCurrentNode() returned null");
            }
            catch (Throwable e) {
                // A context that does not implement it (its default asks a node manager it does not have): ask ours.
                FailOpenSwitch.rethrowIfFatal(e);
                failure = e;
            }
        }
        if (nodeManager.isPresent()) {
            return nodeManager.get().getCurrentNode();
        }
        throw failure != null ? failure : new IllegalStateException("the running Trino gives the connector neither its node nor a node manager");
    }
}
