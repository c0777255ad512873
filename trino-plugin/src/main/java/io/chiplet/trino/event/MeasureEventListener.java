package io.chiplet.trino.event;

import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.measure.CompletedQuery;
import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.skew.QueryShape;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import io.trino.spi.eventlistener.QueryStatistics;
import org.slf4j.Logger;

import static java.util.Objects.requireNonNull;

/**
 * Hands every completed query to the coordinator's in-place measurement ({@link QueryMeasurements}): its text's
 * shape, when it executed, the CPU time of all its stages, what it read. The plugin's own statements are skipped.
 * Arithmetic only; the measurement does nothing until the coordinator's chiplet catalog started it.
 */
final class MeasureEventListener
        implements EventListener
{
    private static final int TEXT_KEPT = 200;

    private final QueryMeasurements measurements;
    private final FailOpenSwitch failOpen;

    MeasureEventListener(QueryMeasurements measurements, Logger log, CoordinatorParts parts)
    {
        this.measurements = requireNonNull(measurements, "measurements is null");
        requireNonNull(parts, "parts is null");
        this.failOpen = new FailOpenSwitch(log, "Chiplet measurement listener", "placement is not measured",
                cause -> parts.report(CoordinatorParts.MEASUREMENT, CoordinatorParts.OFF, cause));
        parts.report(CoordinatorParts.MEASUREMENT, CoordinatorParts.ACTIVE, "hands completed queries to the in-place measurement "
                + "(it compares once the coordinator's chiplet catalog starts it)");
    }

    @Override
    public void queryCompleted(QueryCompletedEvent event)
    {
        if (!failOpen.active()) {
            return;
        }
        try {
            if (event.getContext().getSource().filter(QueryMeasurements.OWN_SOURCES::contains).isPresent()) {
                // Not measured, but its CPU time is the plugin's cost.
                measurements.countOwnStatement(event.getStatistics().getCpuTime().toNanos());
                return;
            }
            measurements.record(completed(event));
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            failOpen.disable("measuring a completed query failed: " + e);
        }
    }

    static CompletedQuery completed(QueryCompletedEvent event)
    {
        QueryStatistics statistics = event.getStatistics();
        String text = event.getMetadata().getQuery();
        return new CompletedQuery(event.getMetadata().getQueryId(), QueryShape.fingerprint(text), text.length() > TEXT_KEPT ? text.substring(0, TEXT_KEPT) : text,
                event.getExecutionStartTime().toEpochMilli(), Math.max(event.getExecutionStartTime().toEpochMilli(), event.getEndTime().toEpochMilli()),
                statistics.getCpuTime().toNanos(), statistics.getProcessedInputBytes() + statistics.getInternalNetworkBytes(),
                statistics.getProcessedInputRows() + statistics.getInternalNetworkRows(), event.getFailureInfo().isPresent());
    }
}
