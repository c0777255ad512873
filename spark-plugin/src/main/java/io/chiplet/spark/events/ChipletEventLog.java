package io.chiplet.spark.events;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.measure.MeasureReport;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.spark.messages.TopologyReport;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Posts the plugin's facts on the driver's listener bus as events of this package, so that the event log (and any
 * listener, the History Server's among them) has them. Posting only enqueues: it never waits on the bus. Any failure
 * here switches only these events off, with one warning.
 */
public final class ChipletEventLog
{
    private static final Logger log = LoggerFactory.getLogger(ChipletEventLog.class);

    private final Consumer<SparkListenerEvent> bus;
    private final LongSupplier clock;
    private final FailOpenGuard guard = new FailOpenGuard(log, "the driver's event-log events", "placement and Spark go on, the event log lacks the plugin's facts");
    private final Map<String, PlacementCounts> lastCounts = new ConcurrentHashMap<>();

    public ChipletEventLog(Consumer<SparkListenerEvent> bus, LongSupplier clock)
    {
        this.bus = requireNonNull(bus, "bus is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Posting on {@code context}'s listener bus. */
    public static ChipletEventLog of(SparkContext context)
    {
        requireNonNull(context, "context is null");
        return new ChipletEventLog(event -> context.listenerBus().post(event), System::currentTimeMillis);
    }

    public void topology(TopologyReport report)
    {
        post("topology event", () -> ChipletTopologyEvent.of(clock.getAsLong(), report));
    }

    /** An executor's counts; posted only when they changed since its last (executors send them every few seconds). */
    public void placement(PlacementCounts counts)
    {
        guard.run("placement event", () -> {
            PlacementCounts previous = lastCounts.put(counts.executorId(), counts);
            if (!counts.equals(previous)) {
                bus.accept(ChipletPlacementEvent.of(clock.getAsLong(), counts));
            }
        });
    }

    /** Where an executor's tasks ran since its last message (bounded, {@link TaskPlaces}); nothing when none ended. */
    public void tasks(TaskPlaces places)
    {
        if (!places.isEmpty()) {
            post("tasks event", () -> ChipletTasksEvent.of(clock.getAsLong(), places));
        }
    }

    public void settings(String basis, List<AdvisedSetting> advice)
    {
        post("settings event", () -> ChipletSettingsEvent.of(clock.getAsLong(), basis, advice));
    }

    /**
     * A listener posting the measurement ({@code report} as it stands) at each stage and job end where its figures
     * changed, a guard event where placing changed, and the last one at the application's end. Add it after the
     * measurement's own listener: a bus calls its listeners in the order they were added, so at the end it reads the
     * final report.
     */
    public SparkListener measurement(Supplier<MeasureReport> report)
    {
        requireNonNull(report, "report is null");
        return new MeasurePoster(report);
    }

    private void post(String what, Supplier<SparkListenerEvent> event)
    {
        guard.run(what, () -> bus.accept(event.get()));
    }

    private final class MeasurePoster
            extends SparkListener
    {
        private final Supplier<MeasureReport> report;
        private String posted = "";
        private boolean placing = true;
        private boolean ended;

        MeasurePoster(Supplier<MeasureReport> report)
        {
            this.report = report;
        }

        @Override
        public void onStageCompleted(SparkListenerStageCompleted event)
        {
            guard.run("measurement event", () -> postIfChanged(false));
        }

        @Override
        public void onJobEnd(SparkListenerJobEnd event)
        {
            guard.run("measurement event", () -> postIfChanged(false));
        }

        @Override
        public void onApplicationEnd(SparkListenerApplicationEnd event)
        {
            guard.run("measurement event", () -> postIfChanged(true));
        }

        private synchronized void postIfChanged(boolean last)
        {
            if (ended) {
                return;
            }
            ended = last;
            MeasureReport current = report.get();
            long time = clock.getAsLong();
            if (current.guard().placing() != placing) {
                placing = current.guard().placing();
                bus.accept(new ChipletGuardEvent(time, placing, current.summaryLine()));
            }
            String figures = current.estimate().placedUnits() + "/" + current.estimate().controlUnits() + "/" + current.estimate().strataCompared() + "/" + placing;
            if (last || !figures.equals(posted)) {
                posted = figures;
                bus.accept(ChipletMeasureEvent.of(time, last, current));
            }
        }
    }
}
