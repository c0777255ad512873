package io.chiplet.trino.connector;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.measure.Arm;
import io.chiplet.measure.EffectInjector;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.trino.measure.MeasureKeys;
import io.chiplet.trino.measure.WindowSchedule;
import io.chiplet.trino.placement.AgentSnapshot;
import io.chiplet.trino.placement.PlacementAgents;
import io.chiplet.trino.skew.CompletedStageSkew;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the chiplet catalog knows and does on one node: the settings, the node's topology and its share of the JVM's
 * placement agent. Starting never throws: a bad setting or any failure logs one warning naming the cause and leaves
 * the catalog up with its tables (which report the problem in {@code runtime.status}) and nothing pinned.
 */
public final class NodeRuntime
        implements CatalogState, AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(NodeRuntime.class);

    private final String catalog;
    private final String node;
    private final Optional<PlacementSettings> config;
    private final Optional<Topology> topology;
    private final Optional<PlacementAgents.Registration> placement;
    private final Optional<String> problem;
    private Optional<EffectInjector> injector = Optional.empty();
    // What the coordinator last published, followed trivially where this node places nothing.
    private volatile Optional<WindowSchedule> received = Optional.empty();

    private NodeRuntime(String catalog, String node, Optional<PlacementSettings> config, Optional<Topology> topology,
            Optional<PlacementAgents.Registration> placement, Optional<String> problem)
    {
        this.catalog = catalog;
        this.node = node;
        this.config = config;
        this.topology = topology;
        this.placement = placement;
        this.problem = problem;
    }

    /**
     * Reads the settings and the topology and joins (or starts) the JVM's placement agent. Never throws: a catalog that
     * failed to load would fail Trino's start (static catalogs) or every query naming it.
     */
    public static NodeRuntime start(String catalog, String node, Map<String, String> properties, TaskRole role)
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(node, "node is null");
        requireNonNull(properties, "properties is null");
        requireNonNull(role, "role is null");
        try {
            NodeRuntime runtime = tryStart(catalog, node, properties, role);
            runtime.injector = injector(catalog, node, properties);
            return runtime;
        }
        catch (RuntimeException | LinkageError e) {
            // A bug of ours, or a class the JVM cannot link (a JDK without FFM): still no reason to take Trino down.
            log.debug("Chiplet catalog failed to start", e);
            return off(catalog, node, Optional.empty(), Optional.empty(), "the chiplet catalog failed to start: " + e);
        }
    }

    private static NodeRuntime tryStart(String catalog, String node, Map<String, String> properties, TaskRole role)
    {
        TrinoSettings.Parsed parsed = TrinoSettings.parse(properties);
        if (parsed instanceof TrinoSettings.Problem bad) {
            return off(catalog, node, Optional.empty(), Optional.empty(), bad.message());
        }
        PlacementSettings config = ((TrinoSettings.Valid) parsed).settings();
        if (!role.runsTasks()) {
            // An idle JVM holding a lease would halve the placement of a worker on the same host.
            String why = "this node is " + role.reason() + ": no chiplet lease, nothing pinned";
            if (role.determined()) {
                log.info("Chiplet catalog {} on node {}: {}", catalog, node, why);
            }
            else {
                log.warn("Chiplet catalog {} on node {}: {}", catalog, node, why);
            }
            return new NodeRuntime(catalog, node, Optional.of(config), Optional.empty(), Optional.empty(), Optional.of(why));
        }
        Topology topology;
        try {
            topology = TopologyDiscovery.discover(new DiscoveryOptions(config.fsRoot(), Optional.empty(), config.virtualChipletCores()));
        }
        catch (RuntimeException e) {
            return off(catalog, node, Optional.of(config), Optional.empty(), "cannot read the topology"
                    + config.fsRoot().map(root -> " from " + TrinoSettings.FS_ROOT + "=" + root).orElse("") + ": " + e.getMessage());
        }
        if (!config.enabled()) {
            log.info("Chiplet catalog {} on node {}: {}=false, no thread placement", catalog, node, TrinoSettings.ENABLED);
            return new NodeRuntime(catalog, node, Optional.of(config), Optional.of(topology), Optional.empty(), Optional.of(TrinoSettings.ENABLED + "=false"));
        }
        if (!config.policy().bindsWorkers()) {
            log.info("Chiplet catalog {} on node {}: policy {} places no thread", catalog, node, config.policy());
            return new NodeRuntime(catalog, node, Optional.of(config), Optional.of(topology), Optional.empty(), Optional.empty());
        }
        try {
            PlacementAgents.Registration registration = PlacementAgents.register(catalog, config, () -> NodeAgentLauncher.start(node, config, topology));
            return new NodeRuntime(catalog, node, Optional.of(config), Optional.of(topology), Optional.of(registration), Optional.empty());
        }
        catch (RuntimeException | LinkageError e) {
            log.debug("Chiplet placement failed to start", e);
            return off(catalog, node, Optional.of(config), Optional.of(topology), "thread placement could not start: " + e.getMessage());
        }
    }

    /** Test only: the effect injector, where the catalog asks for it and the JVM allows it. */
    private static Optional<EffectInjector> injector(String catalog, String node, Map<String, String> properties)
    {
        String ratio = properties.get(MeasureKeys.INJECT_TIME_RATIO);
        if (ratio == null) {
            return Optional.empty();
        }
        if (!MeasureSettings.injectorAllowed()) {
            log.warn("Chiplet catalog {} on node {}: {} is a test-only setting, ignored without -D{}=true", catalog, node, MeasureKeys.INJECT_TIME_RATIO,
                    MeasureSettings.TEST_INJECTOR_PROPERTY);
            return Optional.empty();
        }
        try {
            EffectInjector injector = new EffectInjector(MeasureKeys.parse(Map.of(MeasureKeys.INJECT_TIME_RATIO, ratio.strip())).injectTimeRatio().orElseThrow());
            log.warn("Chiplet catalog {} on node {}: TEST ONLY effect injector active, {} work takes {} times control work", catalog, node,
                    injector.timeRatio() >= 1 ? "placed" : "control", injector.timeRatio() >= 1 ? injector.timeRatio() : 1 / injector.timeRatio());
            return Optional.of(injector);
        }
        catch (RuntimeException e) {
            log.warn("Chiplet catalog {} on node {}: no effect injector: {}", catalog, node, e.getMessage());
            return Optional.empty();
        }
    }

    private static NodeRuntime off(String catalog, String node, Optional<PlacementSettings> config, Optional<Topology> topology, String cause)
    {
        log.warn("Chiplet catalog {} on node {}: no thread placement, Trino runs as without it: {}", catalog, node, cause);
        return new NodeRuntime(catalog, node, config, topology, Optional.empty(), Optional.of(cause));
    }

    @Override
    public String catalog()
    {
        return catalog;
    }

    @Override
    public String node()
    {
        return node;
    }

    public Optional<PlacementSettings> config()
    {
        return config;
    }

    public Optional<Topology> topology()
    {
        return topology;
    }

    /**
     * Core's partition basis of this node's topology: the usable chiplets and physical cores its report to the
     * coordinator gives, read as {@code chiplet advise} reads the same machine or snapshot. Empty without a topology.
     */
    public Optional<PartitionBasis> partitionBasis()
    {
        try {
            return topology.map(read -> PartitionBasis.of(read, read.allowed()));
        }
        catch (RuntimeException e) {
            // No usable chiplet (a snapshot of another machine): nothing to report.
            log.debug("No partition basis for the topology", e);
            return Optional.empty();
        }
    }

    /** The problem that keeps placement off, or why it stopped; empty while the agent places threads. */
    @Override
    public Optional<String> problem()
    {
        return problem.or(() -> placement.flatMap(registration -> registration.agent().snapshot().stopped()));
    }

    /** The JVM's placement agent's latest pass; empty when this catalog places nothing. */
    public AgentSnapshot placement()
    {
        return placement.map(registration -> registration.agent().snapshot()).orElse(AgentSnapshot.EMPTY);
    }

    /** The catalog whose settings the JVM's agent runs with (this one, or another chiplet catalog of the JVM). */
    public Optional<String> governingCatalog()
    {
        return placement.map(PlacementAgents.Registration::governingCatalog);
    }

    /** Follows the coordinator's measurement schedule where this node's agent places threads. */
    @Override
    public void follow(WindowSchedule schedule)
    {
        synchronized (this) {
            if (received.isEmpty() || schedule.supersedes(received.get())) {
                received = Optional.of(schedule);
            }
        }
        placement.ifPresent(registration -> registration.agent().follow(schedule));
    }

    /**
     * The schedule this node follows; empty before one was published. A node that places nothing follows any schedule
     * trivially (its placed and control windows are the same).
     */
    public Optional<WindowSchedule> schedule()
    {
        return placement.flatMap(registration -> registration.agent().schedule()).or(() -> received);
    }

    /** The arm of the current window on this node: placed where no schedule is followed. */
    public Arm armNow()
    {
        return placement.map(registration -> registration.agent().armNow()).orElse(Arm.PLACED);
    }

    /** Test only: the effect injector, where active. */
    public Optional<EffectInjector> injector()
    {
        return injector;
    }

    @Override
    public List<List<Object>> rows(RuntimeTable table, List<CompletedStageSkew> skew)
    {
        return ChipletRecordSetProvider.rows(table, this, skew);
    }

    @Override
    public void close()
    {
        placement.ifPresent(PlacementAgents.Registration::close);
    }
}
