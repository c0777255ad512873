package io.chiplet.spark.driver;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.chiplet.advice.Advice;
import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseLedger;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Wording;
import io.chiplet.engine.spark.SparkExecutorExpectation;
import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.placement.Bytes;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.PartitionSizing;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.settings.ReportDirectory;
import io.chiplet.spark.events.ChipletEventLog;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.measure.ArmReport;
import io.chiplet.spark.measure.ExecutorArmRequest;
import io.chiplet.spark.measure.MeasureMessages;
import io.chiplet.spark.measure.MeasuringListener;
import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.SpreadHintRequest;
import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.settings.MeasureKeys;
import io.chiplet.spark.settings.SparkConfs;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.spark.skew.MapOutputSizes;
import io.chiplet.spark.skew.SkewListener;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.spark.skew.StageSkewTracker;
import io.chiplet.spark.ui.ChipletUi;
import io.chiplet.wire.Unreadable;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The driver's half: sizes partition settings to the chiplets the executors report, where the user has not set
 * them, and answers executors' questions. Only executors' reports count (a driver in client mode, on a laptop or an
 * edge node, never reads its own machine), and an executor Spark removes stops counting. The figure goes to the
 * SparkConf ({@code spark.default.parallelism} is read there while the application runs; sessions made later copy
 * the rest) and to every SparkSession, existing and new, through {@link ChipletSessionExtension} and
 * {@link SessionSizing}. Until every executor core's {@link SparkExecutorExpectation} names has reported, the figure
 * is logged as provisional; sessions follow each new one.
 */
public final class ChipletDriverPlugin
        implements DriverPlugin
{
    /** Extra executor conf entry: the driver switched the plugin off and has warned already. */
    public static final String DISABLED_BY_DRIVER = "disabledByDriver";
    /** Extra executor conf entry: why Python daemons may start in per-session directories (Spark Connect). */
    public static final String ISOLATED_PYTHON_SESSIONS = "isolatedPythonSessions";
    /** The seed of the measurement's arms the driver drew for this application where none is set: every executor draws alike. */
    public static final String MEASURE_SEED = "measureSeed";
    static final String SESSION_EXTENSIONS = "spark.sql.extensions";

    private static final Logger log = LoggerFactory.getLogger(ChipletDriverPlugin.class);
    private static final List<String> ADVISED_KEYS = SparkPartitionSettings.KEYS;

    private final FailOpenGuard guard = new FailOpenGuard(log, "the driver");
    private final Map<String, TopologyReport> reports = new ConcurrentHashMap<>();
    // Keys the user left unset at start, with the value the plugin last gave them; only those it may change.
    private final Map<String, String> owned = new LinkedHashMap<>();
    private final StageSkewTracker skew;
    private volatile SparkConf conf;
    private volatile boolean warnedUnreadable;
    private volatile MetricRegistry registry;
    private final Function<Object, SessionConf> sessionConf;
    private volatile SessionSizing sessions;
    private volatile SparkExecutorExpectation expectation = new SparkExecutorExpectation(OptionalInt.empty(), "not started");
    private List<AdvisedSetting> figure = List.of();
    private final Map<String, PlacementCounts> counts = new ConcurrentHashMap<>();
    // The executors' chiplet leases, to keep executors of one host apart where their lease directories differ.
    private final LeaseLedger leases = new LeaseLedger();
    private volatile MeasuringListener measuring;
    // The plugin's facts for the event log; posts nowhere until the driver has a SparkContext.
    private volatile ChipletEventLog events = new ChipletEventLog(event -> {}, System::currentTimeMillis);

    /** What Spark instantiates, through {@link ChipletPlugin}. */
    public ChipletDriverPlugin()
    {
        this(new StageSkewTracker());
    }

    ChipletDriverPlugin(StageSkewTracker skew)
    {
        this(skew, ChipletSessionExtension::confOf);
    }

    ChipletDriverPlugin(StageSkewTracker skew, Function<Object, SessionConf> sessionConf)
    {
        this.skew = skew;
        this.sessionConf = sessionConf;
    }

    @Override
    public Map<String, String> init(SparkContext sparkContext, PluginContext context)
    {
        Map<String, String> toExecutors = guard.call("driver init", () -> start(sparkContext, context), Map.of(DISABLED_BY_DRIVER, "the driver plugin failed to start"));
        MeasuringListener listener = measuring;
        if (listener == null || toExecutors.containsKey(DISABLED_BY_DRIVER)) {
            return toExecutors;
        }
        Map<String, String> withSeed = new java.util.HashMap<>(toExecutors);
        withSeed.put(MEASURE_SEED, Long.toString(listener.seed()));
        return withSeed;
    }

    private Map<String, String> start(SparkContext sparkContext, PluginContext context)
    {
        SparkConf sparkConf = context.conf();
        SparkSettings.Parsed parsed = SparkSettings.parse(SparkConfs.toMap(sparkConf));
        if (parsed instanceof SparkSettings.Problem problem) {
            guard.disable(problem.message());
            return Map.of(DISABLED_BY_DRIVER, problem.message());
        }
        PlacementSettings settings = ((SparkSettings.Valid) parsed).settings();
        if (!settings.enabled()) {
            guard.disableQuietly(SparkSettings.ENABLED + " is false");
            return Map.of(DISABLED_BY_DRIVER, SparkSettings.ENABLED + " is false");
        }
        MeasureKeys.Parsed measure = MeasureKeys.parse(SparkConfs.toMap(sparkConf));
        if (measure instanceof MeasureKeys.Invalid invalid) {
            guard.disable(invalid.problem().message());
            return Map.of(DISABLED_BY_DRIVER, invalid.problem().message());
        }
        this.conf = sparkConf;
        registerMetrics(context.metricRegistry());
        if (sparkContext != null) {
            events = ChipletEventLog.of(sparkContext);
            // The Chiplet tab of the live UI, over the same events (docs/observability.md).
            ChipletUi.attachLive(sparkContext);
            MeasureSettings measureSettings = ((MeasureKeys.Valid) measure).settings();
            if (measureSettings.enabled()) {
                // Found now, not when the report is written at the end; the event log has the figures either way.
                measureSettings.reportDirectory().flatMap(ReportDirectory::problem).ifPresent(problem -> log.warn(
                        "Chiplet plugin cannot write its measurement report ({}): {}; the figures still go to the event log and the driver's metrics",
                        MeasureKeys.REPORT_DIR, problem));
                // Placement measured in place: task arms from executors, task metrics from the bus (docs/measuring.md).
                // No seed set: the listener draws one for this application (recurring runs do not repeat one assignment).
                measuring = new MeasuringListener(measureSettings, sparkContext.appName(), sparkContext::applicationId, System::currentTimeMillis);
                measuring.register(context.metricRegistry());
                sparkContext.addSparkListener(measuring);
                // After the measurement's listener: at the end it posts the final report.
                sparkContext.addSparkListener(events.measurement(measuring::latest));
            }
            // Skew is predicted from map output and measured from every stage's tasks; the hints go to executors in
            // reply to their asks.
            sparkContext.addSparkListener(new SkewListener(skew, guard, MapOutputSizes.forSparkVersion(sparkContext.version())));
            sparkContext.addSparkListener(new ExecutorRemovalListener(this::forget, guard));
        }
        Map<String, String> toExecutors = PythonSessions.isolated(SparkConfs.toMap(sparkConf), System.getProperty("sun.java.command", ""))
                .map(reason -> Map.of(ISOLATED_PYTHON_SESSIONS, reason))
                .orElse(Map.of());
        if (!settings.partitionsResize()) {
            log.info("Chiplet plugin leaves partition settings to Spark: {} is false", SparkSettings.PARTITIONS_RESIZE);
            return toExecutors;
        }
        expectation = SparkExecutorExpectation.of(SparkConfs.toMap(sparkConf));
        Set<String> userKeys = new HashSet<>();
        synchronized (owned) {
            for (String key : ADVISED_KEYS) {
                if (sparkConf.contains(key)) {
                    log.info("Chiplet plugin keeps {} = {}: set by the user", key, sparkConf.get(key));
                    userKeys.add(key);
                }
                else {
                    owned.put(key, "");
                }
            }
        }
        sessions = new SessionSizing(userKeys, sessionConf);
        registerSessionExtension(sparkConf);
        return toExecutors;
    }

    /**
     * Appends {@link ChipletSessionExtension} to {@code spark.sql.extensions}, which SparkSessions read from the
     * SparkContext's conf when they are made: every session of this application is made after this point.
     */
    private void registerSessionExtension(SparkConf sparkConf)
    {
        String ours = ChipletSessionExtension.class.getName();
        String current = sparkConf.get(SESSION_EXTENSIONS, "").strip();
        if (!Arrays.asList(current.split("\\s*,\\s*")).contains(ours)) {
            sparkConf.set(SESSION_EXTENSIONS, current.isEmpty() ? ours : current + "," + ours);
        }
        ChipletSessionExtension.ACTIVE_DRIVER.set(this::registerSession);
    }

    /** A session, at its first query: it gets the current figure now and every later one. */
    void registerSession(Object session)
    {
        SessionSizing sizing = sessions;
        if (sizing == null || !guard.active()) {
            return;
        }
        SessionSizing.Applied applied = sizing.register(session);
        applied.keptByUser().forEach(kept -> log.info("Chiplet plugin keeps {} in a SparkSession: set there by the user", kept));
        if (applied.sessionsChanged() > 0) {
            log.info("Chiplet plugin set the partition figure in a new SparkSession ({} sessions sized)", sizing.sessions());
        }
    }

    /** Spark removed an executor: its chiplets stop counting, and the figure follows. */
    void forget(String executorId)
    {
        synchronized (leases) {
            leases.release(executorId);
        }
        if (reports.remove(executorId) != null) {
            // Its task counts stay: the cluster.tasks gauges count every task the application ran.
            log.info("Executor {} removed: the partition figure no longer counts it", executorId);
            resize();
        }
    }

    /**
     * Every message is a {@link PluginMessages} string and so is every reply: an executor may decode no class of
     * ours. A message this version cannot read gets no hints and one warning; it never switches the driver off.
     */
    @Override
    public Object receive(Object message)
    {
        return guard.call("driver receive", () -> {
            Optional<Object> measured = MeasureMessages.decode(message);
            if (measured.isPresent() && measured.get() instanceof ArmReport arms) {
                MeasuringListener listener = measuring;
                return listener == null ? null : listener.receive(arms);
            }
            if (measured.isPresent() && measured.get() instanceof ExecutorArmRequest request) {
                MeasuringListener listener = measuring;
                return listener == null ? null : listener.receive(request);
            }
            // a measurement message that does not read says so itself (which message, which field)
            Object decoded = measured.isPresent() && measured.get() instanceof Unreadable unreadable ? unreadable : PluginMessages.decode(message);
            if (decoded instanceof LeaseClaim claim) {
                return PluginMessages.encode(leaseVerdict(claim));
            }
            SpreadHints reply = answer(decoded);
            // Counts come one-way (send): Spark warns about any reply to a one-way message, so they get none.
            return decoded instanceof PlacementCounts || decoded instanceof TaskPlaces ? null : PluginMessages.encode(reply);
        }, PluginMessages.encode(SpreadHints.NONE));
    }

    /**
     * An executor's lease, checked against those of the application's other executors on its host (same kernel): where
     * their lease directories are not one directory, the executor learns which chiplets the others hold and leases
     * again without them (core's {@code ChipletLock}), and the driver says once per host what it found.
     */
    private LeaseVerdict leaseVerdict(LeaseClaim claim)
    {
        LeaseVerdict verdict;
        synchronized (leases) {
            verdict = leases.claim(claim);
        }
        if (verdict.firstOnKernel()) {
            log.warn("Chiplet plugin: executors {} and {} run on one host but do not share a lease directory ({} is another directory for each: "
                    + "a container with a private temporary directory); the driver keeps this application's executors on different chiplets, "
                    + "but other applications on that host do not see their leases. Set {} to a directory every executor container of the host "
                    + "shares (YARN: a path on the NodeManager host; Kubernetes: a hostPath volume)",
                    verdict.unseenHolders(), claim.holder(), claim.scope().path(), SparkSettings.LEASE_DIR);
        }
        return verdict;
    }

    private SpreadHints answer(Object message)
    {
        if (message instanceof TopologyReport report) {
            log.info("Executor {} on {} ({} mode) has {}, {}, L3 {} per chiplet",
                    report.executorId(), report.host(), report.mode().configName(), Wording.count(report.summary().chiplets(), "chiplet"),
                    Wording.count(report.summary().cores(), "core"), report.summary().chipletL3Bytes() == 0 ? "unknown" : Bytes.format(report.summary().chipletL3Bytes()));
            reports.put(report.executorId(), report);
            events.topology(report);
            resize();
            return SpreadHints.NONE;
        }
        if (message instanceof SpreadHintRequest) {
            return hints();
        }
        if (message instanceof PlacementCounts executorCounts) {
            // Gauges first: a scrape never sees tasks counted on a chiplet without that chiplet's gauge.
            executorCounts.tasksByChiplet().keySet().forEach(this::registerChiplet);
            counts.put(executorCounts.executorId(), executorCounts);
            events.placement(executorCounts);
            return SpreadHints.NONE;
        }
        if (message instanceof TaskPlaces places) {
            events.tasks(places);
            return SpreadHints.NONE;
        }
        Unreadable unreadable = (Unreadable) message;
        if (!warnedUnreadable) {
            warnedUnreadable = true;
            log.warn("Chiplet plugin on the driver cannot read a message from an executor (an executor with another plugin version?), it gets no hints: {}", unreadable.why());
        }
        return SpreadHints.NONE;
    }

    /**
     * Every executor's placement in the driver's metrics (source {@code plugin.io.chiplet.spark.ChipletPlugin}),
     * which the driver's sinks serve, its Prometheus servlet among them: executors have no endpoint of their own.
     * Named {@code cluster.*}: in local mode the executor's gauges share the driver's metrics system and source
     * name, and a second metric of one name would not register.
     */
    private void registerMetrics(MetricRegistry registry)
    {
        this.registry = registry;
        registry.register("cluster.executors", (Gauge<Integer>) reports::size);
        registry.register("cluster.executors.sharingHost", (Gauge<Long>) () -> reports.values().stream().filter(TopologyReport::sharesHost).count());
        registry.register("cluster.chiplets", (Gauge<Integer>) () -> reports.isEmpty() ? 0 : cluster(reports.values()).chiplets());
        registry.register("cluster.tasks", (Gauge<Long>) () -> counts.values().stream().mapToLong(PlacementCounts::tasks).sum());
        registry.register("cluster.tasks.unplaced", (Gauge<Long>) () -> counts.values().stream().mapToLong(PlacementCounts::unplaced).sum());
        registry.register("cluster.tasks.failed", (Gauge<Long>) () -> counts.values().stream().mapToLong(PlacementCounts::failed).sum());
    }

    /** Tasks on chiplet {@code id} over all executors, from the first executor that counts any there. */
    private void registerChiplet(int id)
    {
        MetricRegistry metrics = registry;
        if (metrics == null) {
            return;
        }
        String name = MetricRegistry.name("cluster.tasks.chiplet", Integer.toString(id));
        synchronized (metrics) {
            if (!metrics.getGauges().containsKey(name)) {
                metrics.register(name, (Gauge<Long>) () -> counts.values().stream().mapToLong(c -> c.tasksByChiplet().getOrDefault(id, 0L)).sum());
            }
        }
    }

    /** Hints for the running stages, judged by core's basis over the executors' reports. */
    private SpreadHints hints()
    {
        PartitionBasis.SkewHintBasis basis = PartitionBasis.forSkewHints(reports.values().stream().map(TopologyReport::summary).toList());
        return skew.hints(basis.widestChiplets(), basis.chipletL3Bytes());
    }

    private void resize()
    {
        SparkConf sparkConf = conf;
        SessionSizing sizing = sessions;
        if (sparkConf == null || sizing == null || reports.isEmpty()) {
            // With no executor left (dynamic allocation at rest), the last figure stands.
            return;
        }
        // Core's rule, as chiplet advise --engine spark prints it.
        List<AdvisedSetting> advice = SparkPartitionSettings.of(PartitionSizing.of(cluster(reports.values()), OptionalLong.empty()));
        int reported = reports.size();
        String basis = expectation.describe(reported) + (expectation.complete(reported) ? "" : ", provisional until they have reported");
        synchronized (owned) {
            if (advice.equals(figure)) {
                return;
            }
            figure = advice;
            List<String> toSparkConf = new ArrayList<>();
            for (AdvisedSetting setting : advice) {
                String ours = owned.get(setting.key());
                if (ours == null) {
                    continue;
                }
                String current = sparkConf.get(setting.key(), "");
                if (!current.equals(ours)) {
                    // Someone else set it after the plugin started: theirs wins, now and later.
                    owned.remove(setting.key());
                    log.info("Chiplet plugin keeps {} = {}: set after the plugin started", setting.key(), current);
                    continue;
                }
                if (!ours.equals(setting.value())) {
                    sparkConf.set(setting.key(), setting.value());
                    owned.put(setting.key(), setting.value());
                    sizing.gaveThroughSparkConf(setting.key(), setting.value());
                    toSparkConf.add(setting.key() + " = " + setting.value());
                }
            }
            events.settings(basis, advice);
            SessionSizing.Applied applied = sizing.update(advice);
            applied.keptByUser().forEach(kept -> log.info("Chiplet plugin keeps {} in a SparkSession: set there by the user", kept));
            if (!toSparkConf.isEmpty() || applied.sessionsChanged() > 0) {
                log.info("Chiplet plugin sized partitions for {}: {} in the SparkConf{}", basis,
                        toSparkConf.isEmpty() ? "nothing changed" : String.join(", ", toSparkConf),
                        applied.sessionsChanged() == 0 ? "" : ", and in " + applied.sessionsChanged() + " SparkSession" + (applied.sessionsChanged() == 1 ? "" : "s"));
                for (AdvisedSetting setting : advice) {
                    log.debug("Chiplet plugin: {} = {}: {}", setting.key(), setting.value(), setting.reason());
                }
            }
        }
    }

    /** All executors' chiplets as one, counted by core's rule ({@link PartitionBasis#ofCluster}). */
    static PartitionBasis cluster(Iterable<TopologyReport> reports)
    {
        List<PartitionBasis.ExecutorBasis> executors = new ArrayList<>();
        reports.forEach(report -> executors.add(report.basis()));
        return PartitionBasis.ofCluster(executors);
    }

    @Override
    public void shutdown()
    {
        guard.run("driver shutdown", () -> {
            // Each executor's placement from its last counts (sent every few seconds), here where the log is whole: a
            // standalone Worker stops copying an executor's output when it kills it at the application's end, which
            // is before Spark stops the executor's plugin, so the executor's own summary line never reaches its log.
            new java.util.TreeMap<>(counts).values().forEach(executor -> log.info("{}", executor.summaryLine()));
            reports.clear();
            ChipletSessionExtension.ACTIVE_DRIVER.set(null);
        });
    }
}
