package io.chiplet.trino.session;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.topology.Topology;
import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.cluster.WorkerReportsFile;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.placement.SkewHint;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.resourcegroups.SessionPropertyConfigurationManagerContext;
import io.trino.spi.session.SessionPropertyConfigurationManager;
import io.trino.spi.session.SessionPropertyConfigurationManagerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The {@code chiplet} session property manager, enabled on the coordinator by
 * {@code etc/session-property-config.properties} with {@code session-property-config.configuration-manager=chiplet}.
 * Trino's SPI tells a session property manager nothing about the cluster: the workers' topology comes from their own
 * reports, which the coordinator's chiplet catalog collects ({@link WorkerReports}), or, where the operator names one
 * with {@code chiplet.fs-root} or {@code chiplet.hwloc-xml}, from that snapshot, taken to describe every worker host.
 * The coordinator's own machine is never used. Creating the manager never fails: what cannot be used is named in one
 * warning and left out.
 */
public final class ChipletSessionPropertyManagerFactory
        implements SessionPropertyConfigurationManagerFactory
{
    private static final Logger log = LoggerFactory.getLogger(ChipletSessionPropertyManagerFactory.class);

    private final SkewHistory skewHistory;
    private final SkewEvidenceLog skewEvidence;
    private final WorkerReports workerReports;
    private final Clock clock;
    private final CoordinatorParts parts;
    private final LongConsumer hookCpu;

    public ChipletSessionPropertyManagerFactory(SkewHistory skewHistory, WorkerReports workerReports)
    {
        this(skewHistory, new SkewEvidenceLog(16), workerReports, Clock.systemUTC(), new CoordinatorParts());
    }

    public ChipletSessionPropertyManagerFactory(SkewHistory skewHistory, SkewEvidenceLog skewEvidence, WorkerReports workerReports, Clock clock)
    {
        this(skewHistory, skewEvidence, workerReports, clock, new CoordinatorParts());
    }

    public ChipletSessionPropertyManagerFactory(SkewHistory skewHistory, SkewEvidenceLog skewEvidence, WorkerReports workerReports, Clock clock,
            CoordinatorParts parts)
    {
        this(skewHistory, skewEvidence, workerReports, clock, parts, cpuNanos -> {});
    }

    /**
     * @param hookCpu told the CPU time (thread CPU clock, nanoseconds) of every call Trino makes to the manager: part of
     *         the plugin's cost, which the in-place measurement reports
     */
    public ChipletSessionPropertyManagerFactory(SkewHistory skewHistory, SkewEvidenceLog skewEvidence, WorkerReports workerReports, Clock clock,
            CoordinatorParts parts, LongConsumer hookCpu)
    {
        this.hookCpu = requireNonNull(hookCpu, "hookCpu is null");
        this.parts = requireNonNull(parts, "parts is null");
        this.skewHistory = requireNonNull(skewHistory, "skewHistory is null");
        this.skewEvidence = requireNonNull(skewEvidence, "skewEvidence is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.workerReports = requireNonNull(workerReports, "workerReports is null");
    }

    @Override
    public String getName()
    {
        return "chiplet";
    }

    @Override
    public SessionPropertyConfigurationManager create(Map<String, String> config, SessionPropertyConfigurationManagerContext context)
    {
        requireNonNull(config, "config is null");
        List<String> problems = new ArrayList<>();

        SessionRules rules = SessionRules.NONE;
        try {
            Optional<Path> rulesFile = SessionManagerSettings.rulesFile(config);
            if (rulesFile.isPresent()) {
                rules = readRules(rulesFile.get());
            }
        }
        catch (RuntimeException e) {
            problems.add("the operator's rules are not applied: " + e.getMessage());
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            problems.add("the operator's rules are not applied: " + e);
        }

        Optional<Supplier<SessionDefaultsPolicy>> defaults = Optional.empty();
        OptionalInt workers = OptionalInt.empty();
        int skewWindowQueries = 0;
        try {
            SessionManagerSettings settings = SessionManagerSettings.parse(config);
            workers = settings.workers();
            skewWindowQueries = settings.skewWindowQueries();
            String counts = workers.isPresent() ? workers.getAsInt() + " nodes (" + SessionManagerSettings.WORKERS + ")" : "the workers that reported";
            if (settings.namesWorkerTopology()) {
                Topology topology = TopologyDiscovery.discover(settings.topology());
                SessionDefaultsPolicy policy = SessionDefaultsPolicy.fit(topology, settings.workersPerHost(), settings.defaults());
                defaults = Optional.of(() -> policy);
                parts.report(CoordinatorParts.SESSION_PROPERTY_MANAGER, CoordinatorParts.ACTIVE, "task_concurrency %d on the worker topology %s"
                        .formatted(policy.taskConcurrency().getAsInt(), topology.source()));
                log.info("Chiplet session defaults for {} on the worker topology the settings name, {}: task_concurrency {} ({}); hash partition counts fitted to {}",
                        settings.defaults().isEmpty() ? "no property" : String.join(", ", settings.defaults()), topology.source(),
                        policy.taskConcurrency().getAsInt(), policy.taskConcurrencyReason(), counts);
            }
            else {
                workerReports.keepIn(settings.stateDirectory().resolve(WorkerReportsFile.FILE_NAME));
                workerReports.want();
                ReportedDefaults reported = new ReportedDefaults(workerReports, settings.defaults(), log,
                        sizing -> parts.report(CoordinatorParts.SESSION_PROPERTY_MANAGER, CoordinatorParts.ACTIVE, sizing));
                log.info("Chiplet session defaults for {} on the topology the workers report (kept in {}); hash partition counts fitted to {}",
                        settings.defaults().isEmpty() ? "no property" : String.join(", ", settings.defaults()), settings.stateDirectory(), counts);
                reported.get();
                // Refitted and logged as soon as the workers report, not at the next query.
                workerReports.onChange(() -> {
                    try {
                        reported.get();
                    }
                    catch (RuntimeException e) {
                        log.debug("Refitting the session defaults failed; the next query tries again", e);
                    }
                });
                defaults = Optional.of(reported);
            }
        }
        catch (RuntimeException | LinkageError e) {
            // LinkageError: the live topology reader's native calls, refused by a JVM without native access, or a
            // class or member the running Trino or JVM lacks.
            problems.add("the chiplet defaults are not applied: " + (e instanceof LinkageError ? e.toString() : e.getMessage()));
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            problems.add("the chiplet defaults are not applied: " + e);
        }

        FailOpenSwitch failOpen = new FailOpenSwitch(log, "Chiplet session defaults", "the operator's rules and Trino's own defaults apply",
                cause -> parts.report(CoordinatorParts.SESSION_PROPERTY_MANAGER, CoordinatorParts.OFF, cause));
        if (!problems.isEmpty()) {
            log.warn("Chiplet session property manager: {}; queries run with what remains", String.join("; ", problems));
            parts.report(CoordinatorParts.SESSION_PROPERTY_MANAGER, defaults.isEmpty() ? CoordinatorParts.OFF : CoordinatorParts.ACTIVE,
                    String.join("; ", problems));
        }
        int window = skewWindowQueries;
        Function<SkewEvidenceLog.SessionKey, SkewHint> skewHints = window == 0
                ? key -> SkewHint.NONE
                : key -> skewEvidence.hintFor(key, clock.instant(), window);
        return new ChipletSessionPropertyManager(rules, defaults, workers, skewHints, skewHistory::recent, failOpen, hookCpu);
    }

    private static SessionRules readRules(Path file)
    {
        String json;
        try {
            json = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new IllegalArgumentException("%s = %s cannot be read: %s".formatted(SessionManagerSettings.RULES_FILE, file, e));
        }
        return SessionRulesParser.parse(json, file.toString());
    }
}
