package io.chiplet.trino.event;

import io.chiplet.placement.SkewRule;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.measure.PluginThreads;
import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.skew.SkewEvidenceLog;
import io.chiplet.trino.skew.SkewHistory;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.EventListenerFactory;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The {@code chiplet} event listener, enabled on the coordinator by {@code etc/event-listener.properties} with
 * {@code event-listener.name=chiplet}. Creating it never fails: a setting that cannot be used is named in one
 * warning and the listener records nothing.
 */
public final class ChipletEventListenerFactory
        implements EventListenerFactory
{
    private static final Logger log = LoggerFactory.getLogger(SkewEventListener.class);

    private final SkewHistory skewHistory;
    private final SkewEvidenceLog skewEvidence;
    private final QueryMeasurements measurements;
    private final CoordinatorParts parts;

    public ChipletEventListenerFactory(SkewHistory skewHistory, SkewEvidenceLog skewEvidence)
    {
        this(skewHistory, skewEvidence, new CoordinatorParts());
    }

    public ChipletEventListenerFactory(SkewHistory skewHistory, SkewEvidenceLog skewEvidence, CoordinatorParts parts)
    {
        this(skewHistory, skewEvidence, parts, new QueryMeasurements(java.time.Clock.systemUTC(), log));
    }

    public ChipletEventListenerFactory(SkewHistory skewHistory, SkewEvidenceLog skewEvidence, CoordinatorParts parts, QueryMeasurements measurements)
    {
        this.parts = requireNonNull(parts, "parts is null");
        this.skewHistory = requireNonNull(skewHistory, "skewHistory is null");
        this.skewEvidence = requireNonNull(skewEvidence, "skewEvidence is null");
        this.measurements = requireNonNull(measurements, "measurements is null");
    }

    /** Both listeners, each failing open on its own: the skew feedback and the in-place measurement. */
    @Override
    public EventListener create(Map<String, String> config, EventListenerContext context)
    {
        return new ChipletEventListener(createSkew(config), new MeasureEventListener(measurements, log, parts), measurements);
    }

    /**
     * The skew listener and the measurement's, each failing open on its own. The whole call is timed on the event
     * thread's CPU clock (not wall time: a thread waiting for a CPU costs none) and counted as the plugin's cost.
     */
    record ChipletEventListener(EventListener skew, EventListener measure, QueryMeasurements measurements)
            implements EventListener
    {
        ChipletEventListener
        {
            requireNonNull(skew, "skew is null");
            requireNonNull(measure, "measure is null");
            requireNonNull(measurements, "measurements is null");
        }

        @Override
        public void queryCompleted(QueryCompletedEvent event)
        {
            long cpuBefore = PluginThreads.currentThreadCpuNanos();
            skew.queryCompleted(event);
            measure.queryCompleted(event);
            measurements.countHookCpu(PluginThreads.currentThreadCpuNanos() - cpuBefore);
        }
    }

    @Override
    public String getName()
    {
        return "chiplet";
    }

    private EventListener createSkew(Map<String, String> config)
    {
        try {
            SkewRule.Thresholds thresholds = SkewListenerSettings.parse(config);
            FailOpenSwitch failOpen = new FailOpenSwitch(log, "Chiplet skew listener", "no skew is recorded",
                    cause -> parts.report(CoordinatorParts.EVENT_LISTENER, CoordinatorParts.OFF, cause));
            SkewEventListener listener = new SkewEventListener(skewHistory, skewEvidence, thresholds, log, failOpen);
            parts.report(CoordinatorParts.EVENT_LISTENER, CoordinatorParts.ACTIVE, "measures the skew of completed queries");
            return listener;
        }
        catch (RuntimeException e) {
            log.warn("Chiplet skew listener off, no skew is recorded: {}", e.getMessage());
            parts.report(CoordinatorParts.EVENT_LISTENER, CoordinatorParts.OFF, "no skew is recorded: " + e.getMessage());
            return new EventListener() {};
        }
        catch (Throwable e) {
            // A class or member the running Trino or JVM cannot link, a bug of ours: Trino would not start with it.
            FailOpenSwitch.rethrowIfFatal(e);
            log.warn("Chiplet skew listener off, no skew is recorded: {}", e.toString());
            parts.report(CoordinatorParts.EVENT_LISTENER, CoordinatorParts.OFF, "no skew is recorded: " + e);
            return new EventListener() {};
        }
    }
}
