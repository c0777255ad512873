package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.GuardStop;
import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.Noun;
import io.chiplet.measure.StratumFigure;
import io.chiplet.settings.MeasureSettings;
import org.slf4j.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The coordinator's in-place comparison of placement (issue 23), the one registry the plugin's coordinator parts share
 * (the event listener feeds it, the chiplet catalog starts it, publishes its schedule and shows its figures). It ties
 * each completed query to the switchback windows it ran in ({@link WindowSchedule}) and gathers it into its window's
 * observation; once a window is complete, each of its query shapes is one unit in core's {@link Measurement} (the window
 * is the unit randomised: its queries share its arm and its load), stratum the shape at the share drawn. It acts on
 * what core decides: a new control share or
 * the guard's stop becomes a schedule entry from {@value #LEAD_WINDOWS} windows on, published to the workers. Queries
 * that ran in windows of both arms, before the schedule, or in windows some worker may not yet have followed are left
 * out and counted. It says what it found where users look: one WARN line per query shape with enough evidence (at
 * most once a minute each), one WARN line when the guard stops placement, and the report files.
 *
 * <p>Its parts: {@link PublishedSchedule} (the schedule and what the workers confirmed of it, and a query's arm),
 * {@link OpenWindows} (each window's queries until it is complete), {@link PluginCpuAccount} (the plugin's cost),
 * {@link ShapeLines} (the line per shape), {@link QueryTexts}, {@link LeftOutQueries} and {@link MeasureReportFiles}.
 */
public final class QueryMeasurements
{
    public static final Duration LINE_EVERY = Duration.ofMinutes(1);
    public static final Duration REPORT_EVERY = Duration.ofMinutes(1);
    /**
     * Re-estimates at most this often: an update runs over every query kept (up to a million), on Trino's event
     * thread, so a busy coordinator must not pay it per query.
     */
    public static final Duration UPDATE_EVERY = Duration.ofSeconds(1);
    /** A new entry takes effect this many windows after the one it is decided in: time for every worker to have it. */
    public static final int LEAD_WINDOWS = 2;
    /** Widening of a query's time on both sides: workers switch a pass after the window starts; clocks differ a little. */
    public static final long MARGIN_MILLIS = 100;
    /** The plugin's own statements (worker reports, schedule publishing): never measured. */
    public static final Set<String> OWN_SOURCES = Set.of("chiplet-worker-reports", "chiplet-measure");
    /**
     * A window's observation is complete this long after the window (widened by {@link #MARGIN_MILLIS}) ended: Trino
     * sends a query's completion event right after it ends, so every query that ended in the window has been heard by then.
     */
    public static final long COMPLETE_AFTER_MILLIS = 1000;

    private final Clock clock;
    private final Logger log;
    private State state;

    public QueryMeasurements(Clock clock, Logger log)
    {
        this.clock = requireNonNull(clock, "clock is null");
        this.log = requireNonNull(log, "log is null");
    }

    /** One measurement, from {@link #start} to {@link #stop}. */
    private static final class State
    {
        final String catalog;
        final Measurement measurement;
        final Runnable publish;
        // Empty where the plan measures nothing: every window placed.
        final Optional<PublishedSchedule> schedule;
        final Optional<MeasureReportFiles> reportFiles;
        final LeftOutQueries leftOut = new LeftOutQueries();
        final QueryTexts texts = new QueryTexts();
        final ShapeLines lines = new ShapeLines();
        final PluginCpuAccount cpu = new PluginCpuAccount(PluginThreads::cpuNanos);
        final OpenWindows windows = new OpenWindows();
        // Shapes recorded since the last update: each may have reached enough evidence for its line.
        final Set<String> recordedSinceUpdate = new LinkedHashSet<>();
        long queriesRecorded;
        Instant lastReport = Instant.EPOCH;
        Instant lastUpdate = Instant.EPOCH;
        boolean reportDue;

        State(String catalog, MeasureSettings settings, Measurement measurement, Runnable publish, Optional<PublishedSchedule> schedule, Logger log)
        {
            this.catalog = catalog;
            this.measurement = measurement;
            this.publish = publish;
            this.schedule = schedule;
            this.reportFiles = settings.reportDirectory().map(directory -> new MeasureReportFiles(directory, catalog, log));
        }
    }

    /**
     * Starts measuring with the coordinator catalog's settings; a second catalog's start is refused (returns false).
     *
     * @param drawnSeed the seed where the settings set none
     * @param publish asks for the schedule to be published to the workers now (must not block)
     */
    public synchronized boolean start(String catalog, MeasureSettings settings, long drawnSeed, Runnable publish)
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(publish, "publish is null");
        if (state != null) {
            return false;
        }
        MeasurementPlan plan = settings.plan(drawnSeed);
        Measurement measurement = new Measurement(plan);
        Optional<PublishedSchedule> schedule = plan.enabled()
                ? Optional.of(PublishedSchedule.starting(clock.millis(), plan.seed(), settings.window().toMillis(), measurement.directive()))
                : Optional.empty();
        state = new State(catalog, settings, measurement, publish, schedule, log);
        return true;
    }

    /** Stops measuring: the last report is written. */
    public synchronized void stop()
    {
        if (state != null) {
            if (state.schedule.isPresent()) {
                // Every query has completed: the windows still open are as complete as they will be.
                closeWindows(Long.MAX_VALUE);
                updateNow();
            }
            writeReport(true);
            state = null;
        }
    }

    public synchronized boolean started()
    {
        return state != null;
    }

    /** The schedule the workers are to follow; empty while nothing is measured (every window placed). */
    public synchronized Optional<WindowSchedule> schedule()
    {
        return state == null ? Optional.empty() : state.schedule.map(PublishedSchedule::current);
    }

    /**
     * What the publisher heard back: whether every worker now follows schedule {@code version} or later, and each
     * worker's plugin CPU time. Windows that started before every worker confirmed a change are left out.
     */
    public synchronized void confirmed(long epoch, long version, boolean everyWorker, Map<String, Long> pluginCpuByWorker)
    {
        if (state == null) {
            return;
        }
        state.cpu.workersReported(pluginCpuByWorker);
        state.schedule.ifPresent(schedule -> schedule.confirmed(epoch, version, everyWorker, clock.millis()));
    }

    /** Records a completed query; called by the event listener once per query. */
    public synchronized void record(CompletedQuery query)
    {
        requireNonNull(query, "query is null");
        if (state != null) {
            recordStarted(query);
        }
    }

    /**
     * Counts CPU time the plugin's coordinator hooks spent on Trino's threads, each call measured on its thread's CPU
     * clock: the event listeners (the whole call, both listeners, the text's fingerprint included) and the session
     * property manager (every query's defaults). Part of the plugin's cost.
     */
    public synchronized void countHookCpu(long cpuNanos)
    {
        if (state != null) {
            state.cpu.countHook(cpuNanos);
        }
    }

    /**
     * Counts a statement the plugin ran itself (worker reports, schedule publishing; never measured): the CPU time
     * Trino counted for it, spent on the workers' runner threads on the plugin's behalf, is part of the plugin's cost.
     */
    public synchronized void countOwnStatement(long cpuNanos)
    {
        if (state != null) {
            state.cpu.countOwnStatement(cpuNanos);
        }
    }

    private void recordStarted(CompletedQuery query)
    {
        state.cpu.countQuery(query.cpuNanos());
        if (!state.measurement.plan().enabled() || state.schedule.isEmpty()) {
            return;
        }
        state.texts.remember(query.shape(), query.text());
        Optional<Arm> arm = attribute(query);
        if (arm.isEmpty()) {
            return;
        }
        // Compared within its shape and the share its windows were drawn at (core's DrawnArm): the share falls over a
        // run, so an early control window is likelier than a late one, and a cluster warming up would bias a pooled
        // comparison.
        WindowSchedule schedule = state.schedule.orElseThrow().current();
        DrawnArm drawn = schedule.drawnArmOfWindow(schedule.windowAt(query.startMillis()));
        // Its window is the one it ended in: a query is heard when it ends, so that window is the one still gathering.
        long window = schedule.windowAt(query.endMillis());
        closeWindows(clock.millis());
        if (state.windows.complete(window)) {
            state.leftOut.add(LeftOut.LATE);
            return;
        }
        state.windows.add(drawn.stratum(query.shape()), window, arm.get(), query);
        state.queriesRecorded++;
        state.reportDue = true;
        state.recordedSinceUpdate.add(query.shape());
        Instant now = clock.instant();
        if (Duration.between(state.lastUpdate, now).compareTo(UPDATE_EVERY) < 0) {
            return;
        }
        state.lastUpdate = now;
        updateNow();
        state.recordedSinceUpdate.forEach(this::lineFor);
        state.recordedSinceUpdate.clear();
        if (Duration.between(state.lastReport, clock.instant()).compareTo(REPORT_EVERY) >= 0) {
            writeReport(false);
        }
    }

    /** The query's arm; empty, counted, where it failed, used no CPU or cannot be told an arm ({@link PublishedSchedule#arm}). */
    private Optional<Arm> attribute(CompletedQuery query)
    {
        if (query.failed()) {
            state.leftOut.add(LeftOut.FAILED);
            return Optional.empty();
        }
        if (query.cpuNanos() <= 0) {
            state.leftOut.add(LeftOut.NO_CPU);
            return Optional.empty();
        }
        return state.schedule.orElseThrow().arm(query, state.leftOut);
    }

    /**
     * Records, as one observation each, the windows complete at {@code nowMillis}: ended, widened by the margin, at
     * least {@link #COMPLETE_AFTER_MILLIS} ago.
     */
    private void closeWindows(long nowMillis)
    {
        state.windows.recordComplete(state.schedule.orElseThrow().current(), nowMillis, state.measurement::record);
    }

    /** Records the complete windows, re-estimates, lets the guard look, and follows what core decides. */
    private void updateNow()
    {
        closeWindows(clock.millis());
        Measurement.Update update = state.measurement.update();
        update.stoppedNow().ifPresent(this::warnStopped);
        // A directive that differs from the schedule's last entry becomes its next entry, published at once.
        if (state.schedule.orElseThrow().follow(update.directive(), clock.millis())) {
            state.publish.run();
        }
    }

    private void warnStopped(GuardStop stop)
    {
        log.warn("Chiplet placement stopped by the guard ({}=auto): placed queries are measurably slower (look {}, threshold {} standard errors); "
                        + "the workers stop placing from the window after next and measuring goes on. {}",
                MeasureKeys.GUARD, stop.look(), String.format(Locale.ROOT, "%.2f", stop.threshold()), reportAsItStands().summaryLine());
        state.reportDue = true;
        writeReport(true);
    }

    /** One WARN line for the query's shape once it has enough evidence, at most once a {@link #LINE_EVERY}. */
    private void lineFor(String shape)
    {
        state.lines.lineFor(shape, state.measurement, state.texts, state.cpu::cost, clock.instant()).ifPresent(log::warn);
    }

    /** The report, brought up to date with every query recorded. */
    public synchronized MeasureReport report()
    {
        if (state == null) {
            throw new IllegalStateException("not measuring");
        }
        if (state.schedule.isPresent()) {
            updateNow();
        }
        return reportAsItStands();
    }

    private MeasureReport reportAsItStands()
    {
        List<String> notes = new ArrayList<>();
        notes.add("outcome: each query's CPU time over all its stages as Trino counted it (runner threads serve all queries at once, so a query's "
                + "wall time mostly says what else ran); compared only between queries of one text shape");
        notes.add("unit of analysis: the window (the unit randomised; its queries share its arm and its load): one observation per window and query "
                + "shape, its queries' CPU time over what they read, complete " + COMPLETE_AFTER_MILLIS + " ms after the window ended; the interval is "
                + "cluster-robust over windows: every shape's observation of one window is one cluster");
        notes.add(String.format(Locale.ROOT, "%d queries recorded in %d window observations (%d queries in windows still open)", state.queriesRecorded,
                state.windows.recorded(), state.windows.queriesOpen()));
        state.schedule.map(PublishedSchedule::current).ifPresent(schedule -> notes.add(String.format(Locale.ROOT, "windows of %d ms, one random order for all workers (seed %d), "
                + "schedule version %d", schedule.windowMillis(), schedule.seed(), schedule.version())));
        state.leftOut.byReason().forEach((why, count) -> notes.add(String.format(Locale.ROOT, "%d queries left out: %s", count, why.reason())));
        notes.add(String.format(Locale.ROOT, "%d queries completed while measuring", state.cpu.queries()));
        notes.add(state.cpu.note());
        return MeasureReport.of(state.measurement, "Trino catalog " + state.catalog, "switchback windows: the whole cluster alternates placed "
                        + "and control windows in a seeded random order", Noun.regular("window"), Noun.regular("query shape"), clock.instant().toString(), state.cpu.cost(), notes);
    }

    /** The {@code runtime.measurement} table: one row per query shape compared, and one {@code overall} row. */
    public synchronized List<ShapeRow> rows()
    {
        if (state == null) {
            return List.of();
        }
        List<ShapeRow> rows = new ArrayList<>();
        MeasureReport report = report();
        var estimate = report.estimate();
        rows.add(new ShapeRow("overall", "", estimate.placedUnits(), estimate.controlUnits(), estimate.speedUp(), estimate.speedUpLow(), estimate.speedUpHigh(),
                report.verdict(), state.leftOut.total(),
                report.directive().controlShare(), report.guard().placing(), report.cost().share().isPresent() ? Optional.of(report.cost().share().getAsDouble()) : Optional.empty()));
        int needed = state.measurement.plan().minUnitsPerArm();
        for (StratumFigure figure : estimate.figures()) {
            boolean enough = figure.enough(needed);
            rows.add(new ShapeRow(figure.stratum(), state.texts.of(ShapeLines.shapeOf(figure.stratum())), figure.placed(), figure.control(),
                    enough ? Optional.of(figure.speedUp()) : Optional.empty(), enough ? Optional.of(figure.speedUpLow()) : Optional.empty(),
                    enough ? Optional.of(figure.speedUpHigh()) : Optional.empty(), figure.verdict(needed), 0,
                    report.directive().controlShare(), report.guard().placing(), Optional.empty()));
        }
        return rows;
    }

    /** One row of {@code runtime.measurement}. */
    public record ShapeRow(String shape, String text, long placed, long control, Optional<Double> speedUp, Optional<Double> speedUpLow, Optional<Double> speedUpHigh,
            String verdict, long leftOut, double controlShare, boolean placing, Optional<Double> pluginCpuShare)
    {
        public ShapeRow
        {
            requireNonNull(shape, "shape is null");
            requireNonNull(text, "text is null");
            requireNonNull(speedUp, "speedUp is null");
            requireNonNull(speedUpLow, "speedUpLow is null");
            requireNonNull(speedUpHigh, "speedUpHigh is null");
            requireNonNull(verdict, "verdict is null");
            requireNonNull(pluginCpuShare, "pluginCpuShare is null");
        }
    }

    /** Writes the report files where a directory is set; returns whether it wrote. */
    public synchronized boolean writeReportNow()
    {
        return state != null && writeReport(true);
    }

    private boolean writeReport(boolean evenIfUnchanged)
    {
        if (state.reportFiles.isEmpty() || (!evenIfUnchanged && !state.reportDue)) {
            return false;
        }
        state.lastReport = clock.instant();
        state.reportDue = false;
        return state.reportFiles.get().write(this::reportAsItStands);
    }
}
