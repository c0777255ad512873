package io.chiplet.trino.session;

import io.chiplet.placement.SkewHint;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.skew.CompletedStageSkew;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewFeedback;
import io.trino.spi.session.SessionConfigurationContext;
import io.trino.spi.session.SessionPropertyConfigurationManager;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Trino asks this for every query's default session properties (user's own ones still win). It answers with the
 * operator's matching rules, completed by the chiplet defaults where the rules set nothing. A failure of ours costs
 * only the chiplet defaults, never the rules nor the query.
 */
final class ChipletSessionPropertyManager
        implements SessionPropertyConfigurationManager
{
    private final SessionRules rules;
    private final Optional<Supplier<SessionDefaultsPolicy>> defaults;
    private final OptionalInt configuredWorkers;
    private final Function<SkewEvidenceLog.SessionKey, SkewHint> skewHints;
    private final Supplier<List<CompletedStageSkew>> recentStages;
    private final FailOpenSwitch failOpen;
    private final LongConsumer hookCpu;

    /**
     * @param defaults empty when the chiplet settings were not usable: the rules alone apply
     * @param skewHints the skew hint for a new session of a user and source
     * @param recentStages the skew history, read for the worker count where neither configured nor reported
     */
    ChipletSessionPropertyManager(SessionRules rules, Optional<Supplier<SessionDefaultsPolicy>> defaults, OptionalInt configuredWorkers,
            Function<SkewEvidenceLog.SessionKey, SkewHint> skewHints, Supplier<List<CompletedStageSkew>> recentStages, FailOpenSwitch failOpen)
    {
        this(rules, defaults, configuredWorkers, skewHints, recentStages, failOpen, cpuNanos -> {});
    }

    /**
     * @param hookCpu told each call's CPU time, on the calling thread's CPU clock (not wall time: a thread waiting for a
     *         CPU costs nothing), in nanoseconds
     */
    ChipletSessionPropertyManager(SessionRules rules, Optional<Supplier<SessionDefaultsPolicy>> defaults, OptionalInt configuredWorkers,
            Function<SkewEvidenceLog.SessionKey, SkewHint> skewHints, Supplier<List<CompletedStageSkew>> recentStages, FailOpenSwitch failOpen,
            LongConsumer hookCpu)
    {
        this.hookCpu = requireNonNull(hookCpu, "hookCpu is null");
        this.rules = requireNonNull(rules, "rules is null");
        this.defaults = requireNonNull(defaults, "defaults is null");
        this.configuredWorkers = requireNonNull(configuredWorkers, "configuredWorkers is null");
        this.skewHints = requireNonNull(skewHints, "skewHints is null");
        this.recentStages = requireNonNull(recentStages, "recentStages is null");
        this.failOpen = requireNonNull(failOpen, "failOpen is null");
    }

    @Override
    public Map<String, String> getSystemSessionProperties(SessionConfigurationContext context)
    {
        long before = threadCpuNanos();
        try {
            return systemProperties(context);
        }
        finally {
            hookCpu.accept(threadCpuNanos() - before);
        }
    }

    /** The calling thread's CPU time, 0 where the JVM does not measure it. */
    static long threadCpuNanos()
    {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? Math.max(0, threads.getCurrentThreadCpuTime()) : 0;
    }

    private Map<String, String> systemProperties(SessionConfigurationContext context)
    {
        Map<String, String> ruleProperties;
        try {
            ruleProperties = rules.resolve(context).system();
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            failOpen.disable("resolving the rules for a query of user %s failed: %s".formatted(context.getUser(), e));
            return Map.of();
        }
        if (defaults.isEmpty() || !failOpen.active()) {
            return ruleProperties;
        }
        try {
            List<CompletedStageSkew> recent = recentStages.get();
            SessionDefaultsPolicy policy = defaults.get().get();
            OptionalInt workers = configuredWorkers.isPresent() ? configuredWorkers
                    : policy.reportedWorkers().isPresent() ? policy.reportedWorkers() : SkewFeedback.observedTaskNodes(recent);
            SkewHint hint = skewHints.apply(new SkewEvidenceLog.SessionKey(context.getUser(), context.getSource().orElse("")));
            return policy.systemProperties(ruleProperties, workers, hint);
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            failOpen.disable("computing the defaults of a query of user %s failed: %s".formatted(context.getUser(), e));
            return ruleProperties;
        }
    }

    @Override
    public Map<String, Map<String, String>> getCatalogSessionProperties(SessionConfigurationContext context)
    {
        long before = threadCpuNanos();
        try {
            return rules.resolve(context).catalogs();
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            failOpen.disable("resolving the rules for a query of user %s failed: %s".formatted(context.getUser(), e));
            return Map.of();
        }
        finally {
            hookCpu.accept(threadCpuNanos() - before);
        }
    }
}
