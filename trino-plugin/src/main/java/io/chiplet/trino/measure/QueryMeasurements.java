package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.GuardStop;
import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.Noun;
import io.chiplet.measure.PluginCost;
import io.chiplet.measure.StratumFigure;
import io.chiplet.measure.UnitObservation;
import io.chiplet.settings.MeasureSettings;
import org.slf4j.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
    static final int MAX_SHAPES_NAMED = 4096;

    private final Clock clock;
    private final Logger log;
    private State state;

    public QueryMeasurements(Clock clock, Logger log)
    {
        this.clock = requireNonNull(clock, "clock is null");
        this.log = requireNonNull(log, "log is null");
    }

    /** Why a query was left out. */
    public enum LeftOut
    {
        SPANNING("ran in windows of both arms"),
        UNSCHEDULED("ran before the schedule's first window"),
        UNCONFIRMED("ran in windows some worker may not have followed yet"),
        FAILED("failed"),
        LATE("completed after its window's observation was complete"),
        NO_CPU("used no CPU time");

        private final String reason;

        LeftOut(String reason)
        {
            this.reason = reason;
        }

        public String reason()
        {
            return reason;
        }
    }

    private static final class State
    {
        final String catalog;
        final MeasureSettings settings;
        final Measurement measurement;
        final Runnable publish;
        Optional<WindowSchedule> schedule;
        OptionalLong pendingVersion = OptionalLong.empty();
        long pendingFromWindow;
        final List<long[]> uncertain = new ArrayList<>();
        final Map<LeftOut, Long> leftOut = new LinkedHashMap<>();
        final Map<String, String> texts = new HashMap<>();
        final Map<String, Instant> lastLine = new HashMap<>();
        // Shapes recorded since the last update: each may have reached enough evidence for its line.
        final Set<String> recordedSinceUpdate = new java.util.LinkedHashSet<>();
        final Map<String, Long> workerPluginCpu = new HashMap<>();
        // The randomised unit is the window: each (stratum, window) gathers its queries until the window is complete.
        final Map<WindowKey, WindowTotal> openWindows = new LinkedHashMap<>();
        long completeBefore = Long.MIN_VALUE;
        long queriesRecorded;
        long windowsRecorded;
        long hookCpuNanos;
        long ownStatementCpuNanos;
        long jobCpuNanos;
        long queries;
        Instant lastReport = Instant.EPOCH;
        Instant lastUpdate = Instant.EPOCH;
        boolean reportDue;
        boolean reportFailed;

        State(String catalog, MeasureSettings settings, Measurement measurement, Runnable publish)
        {
            this.catalog = catalog;
            this.settings = settings;
            this.measurement = measurement;
            this.publish = publish;
        }
    }

    private record WindowKey(String stratum, long window) {}

    /** The cluster of every observation of one window, whatever its shape ({@link UnitObservation#cluster()}). */
    static String windowCluster(long window)
    {
        return "window " + window;
    }

    /** One window's queries of one stratum, summed. */
    private static final class WindowTotal
    {
        final Arm arm;
        long queries;
        long cpuNanos;
        long bytes;
        long rows;

        WindowTotal(Arm arm)
        {
            this.arm = arm;
        }

        /**
         * The window's queries of one stratum as one observation, their totals: CPU time and what they read. The estimate
         * is a ratio of totals, so each query counts by its CPU time, as it does in the job. Its cluster is the window:
         * every shape's observation of one window shares the window's arm and its load, so they are not independent, and
         * the interval (and the guard reading it) counts windows, not shape-window pairs.
         */
        UnitObservation observation(String stratum, long window)
        {
            double seconds = cpuNanos / 1e9;
            return new UnitObservation(stratum, arm, seconds, seconds, 0, bytes, rows, windowCluster(window));
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
        state = new State(catalog, settings, new Measurement(plan), publish);
        if (plan.enabled()) {
            long now = clock.millis();
            long from = Math.floorDiv(now, settings.window().toMillis()) + LEAD_WINDOWS;
            WindowSchedule schedule = WindowSchedule.starting(now, plan.seed(), settings.window().toMillis(), state.measurement.directive(), from);
            state.schedule = Optional.of(schedule);
            state.pendingVersion = OptionalLong.of(schedule.version());
            state.pendingFromWindow = from;
        }
        else {
            state.schedule = Optional.empty();
        }
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
        return state == null ? Optional.empty() : state.schedule;
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
        state.workerPluginCpu.putAll(pluginCpuByWorker);
        if (!everyWorker || state.pendingVersion.isEmpty() || state.schedule.isEmpty() || state.schedule.get().epoch() != epoch
                || version < state.pendingVersion.getAsLong()) {
            return;
        }
        long nowWindow = state.schedule.get().windowAt(clock.millis());
        if (nowWindow >= state.pendingFromWindow) {
            // Confirmed late: some worker may have switched only now.
            state.uncertain.add(new long[] {state.pendingFromWindow, nowWindow});
        }
        state.pendingVersion = OptionalLong.empty();
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
        if (state != null && cpuNanos > 0) {
            state.hookCpuNanos += cpuNanos;
        }
    }

    /**
     * Counts a statement the plugin ran itself (worker reports, schedule publishing; never measured): the CPU time
     * Trino counted for it, spent on the workers' runner threads on the plugin's behalf, is part of the plugin's cost.
     */
    public synchronized void countOwnStatement(long cpuNanos)
    {
        if (state != null && cpuNanos > 0) {
            state.ownStatementCpuNanos += cpuNanos;
        }
    }

    private void recordStarted(CompletedQuery query)
    {
        state.queries++;
        state.jobCpuNanos += query.cpuNanos();
        if (!state.measurement.plan().enabled() || state.schedule.isEmpty()) {
            return;
        }
        if (state.texts.size() < MAX_SHAPES_NAMED) {
            state.texts.putIfAbsent(query.shape(), query.text());
        }
        Optional<Arm> arm = attribute(query);
        if (arm.isEmpty()) {
            return;
        }
        // Compared within its shape and the share its windows were drawn at (core's DrawnArm): the share falls over a
        // run, so an early control window is likelier than a late one, and a cluster warming up would bias a pooled
        // comparison.
        WindowSchedule schedule = state.schedule.orElseThrow();
        DrawnArm drawn = schedule.drawnArmOfWindow(schedule.windowAt(query.startMillis()));
        // Its window is the one it ended in: a query is heard when it ends, so that window is the one still gathering.
        long window = schedule.windowAt(query.endMillis());
        closeWindows(clock.millis());
        if (window < state.completeBefore) {
            leftOut(LeftOut.LATE);
            return;
        }
        WindowTotal total = state.openWindows.computeIfAbsent(new WindowKey(drawn.stratum(query.shape()), window), key -> new WindowTotal(arm.get()));
        total.queries++;
        total.cpuNanos += query.cpuNanos();
        total.bytes += query.bytesRead();
        total.rows += query.rowsRead();
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

    /**
     * Records, as one observation each, the windows complete at {@code nowMillis}: ended, widened by the margin, at
     * least {@link #COMPLETE_AFTER_MILLIS} ago.
     */
    private void closeWindows(long nowMillis)
    {
        WindowSchedule schedule = state.schedule.orElseThrow();
        long before = nowMillis == Long.MAX_VALUE ? Long.MAX_VALUE
                : schedule.windowAt(nowMillis - MARGIN_MILLIS - COMPLETE_AFTER_MILLIS);
        if (before <= state.completeBefore) {
            return;
        }
        state.completeBefore = before;
        var open = state.openWindows.entrySet().iterator();
        while (open.hasNext()) {
            var entry = open.next();
            if (entry.getKey().window() < before) {
                state.measurement.record(entry.getValue().observation(entry.getKey().stratum(), entry.getKey().window()));
                state.windowsRecorded++;
                open.remove();
            }
        }
    }

    /** Records the complete windows, re-estimates, lets the guard look, and follows what core decides. */
    private void updateNow()
    {
        closeWindows(clock.millis());
        Measurement.Update update = state.measurement.update();
        update.stoppedNow().ifPresent(this::warnStopped);
        follow(update.directive());
    }

    private Optional<Arm> attribute(CompletedQuery query)
    {
        WindowSchedule schedule = state.schedule.orElseThrow();
        if (query.failed()) {
            return leftOut(LeftOut.FAILED);
        }
        if (query.cpuNanos() <= 0) {
            return leftOut(LeftOut.NO_CPU);
        }
        long first = schedule.windowAt(query.startMillis() - MARGIN_MILLIS);
        long last = schedule.windowAt(query.endMillis() + MARGIN_MILLIS);
        boolean unconfirmed = state.pendingVersion.isPresent() && last >= state.pendingFromWindow;
        for (long[] range : state.uncertain) {
            unconfirmed |= first <= range[1] && range[0] <= last;
        }
        WindowSchedule.Attribution attribution = schedule.attribute(query.startMillis(), query.endMillis(), MARGIN_MILLIS);
        return switch (attribution) {
            case UNSCHEDULED -> leftOut(LeftOut.UNSCHEDULED);
            case SPANNING -> leftOut(LeftOut.SPANNING);
            case PLACED, CONTROL -> unconfirmed ? leftOut(LeftOut.UNCONFIRMED) : Optional.of(attribution == WindowSchedule.Attribution.PLACED ? Arm.PLACED : Arm.CONTROL);
        };
    }

    private Optional<Arm> leftOut(LeftOut why)
    {
        state.leftOut.merge(why, 1L, Long::sum);
        return Optional.empty();
    }

    /** A directive that differs from the schedule's last entry becomes its next entry, published at once. */
    private void follow(Directive directive)
    {
        WindowSchedule schedule = state.schedule.orElseThrow();
        if (directive.equals(schedule.latest())) {
            return;
        }
        long from = schedule.windowAt(clock.millis()) + LEAD_WINDOWS;
        WindowSchedule next = schedule.with(directive, from);
        state.schedule = Optional.of(next);
        // A change still unconfirmed keeps its earlier first window: both are unconfirmed until the workers answer.
        state.pendingFromWindow = state.pendingVersion.isPresent() ? Math.min(state.pendingFromWindow, from) : from;
        state.pendingVersion = OptionalLong.of(next.version());
        state.publish.run();
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
        Optional<StratumFigure> figure = enoughFigure(shape);
        if (figure.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        Instant last = state.lastLine.get(shape);
        if (last != null && Duration.between(last, now).compareTo(LINE_EVERY) < 0) {
            return;
        }
        if (state.lastLine.size() < MAX_SHAPES_NAMED || last != null) {
            state.lastLine.put(shape, now);
        }
        log.warn(shapeLine(figure.get()));
    }

    private Optional<StratumFigure> enoughFigure(String shape)
    {
        int needed = state.measurement.plan().minUnitsPerArm();
        // One figure per share the shape was drawn at; the one with the most queries speaks for it.
        return state.measurement.estimate().figures().stream()
                .filter(figure -> shapeOf(figure.stratum()).equals(shape) && figure.enough(needed))
                .max(java.util.Comparator.comparingInt(figure -> figure.placed() + figure.control()));
    }

    /** The shape of a stratum named by {@link DrawnArm#stratum}: the text before its share. */
    static String shapeOf(String stratum)
    {
        int comma = stratum.indexOf(", ");
        return comma < 0 ? stratum : stratum.substring(0, comma);
    }

    private String shapeLine(StratumFigure figure)
    {
        String verdict = figure.verdict(state.measurement.plan().minUnitsPerArm());
        PluginCost cost = cost();
        String shape = shapeOf(figure.stratum());
        String drawn = figure.stratum().length() > shape.length() + 2 ? figure.stratum().substring(shape.length() + 2) : "";
        String detectable = String.format(Locale.ROOT, "\u00b1%.1f%%", detectableEffect(figure) * 100);
        verdict += verdict.startsWith("placed ") ? "; smallest detectable effect " + detectable
                : "; no difference measurable; an effect beyond " + detectable + " would have shown";
        return String.format(Locale.ROOT, "Chiplet placement measured in place for query shape %s (%s): speed-up %.3fx (95%% CI %.3f-%.3f, %s) from %d placed "
                        + "and %d control windows (drawn %s), CPU time per %s; plugin CPU %s of the queries' (its threads, hooks and own statements, "
                        + "on CPU clocks); guard %s: %s",
                shape, abbreviate(state.texts.getOrDefault(shape, "")), figure.speedUp(), figure.speedUpLow(), figure.speedUpHigh(), verdict, figure.placed(),
                figure.control(), drawn, figure.basis().equals("unit") ? "query" : figure.basis().equals("bytes") ? "byte read" : "row read",
                cost.share().isPresent() ? String.format(Locale.ROOT, "%.3f%%", cost.share().getAsDouble() * 100) : "unknown",
                state.measurement.guard().mode().configName(),
                state.measurement.guard().placing() ? String.format(Locale.ROOT, "placing, control share %.1f%%", state.measurement.directive().controlShare() * 100)
                        : "placement stopped");
    }

    /**
     * The smallest effect a shape's figure could have shown, as core's report gives it for the whole estimate (a
     * two-sided test at 95 % with 80 % power): the interval's half-width on the log scale times {@code (z_0.975 +
     * z_0.8) / z_0.975}, normal quantiles standing in for the figure's Student's t (their ratio differs by under 5 %
     * from 20 windows an arm on).
     */
    static double detectableEffect(StratumFigure figure)
    {
        double halfLog = (Math.log(figure.high()) - Math.log(figure.low())) / 2;
        return Math.expm1(halfLog * (1.959964 + 0.841621) / 1.959964);
    }

    private static String abbreviate(String text)
    {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() > 60 ? line.substring(0, 57) + "..." : line;
    }

    private PluginCost cost()
    {
        return new PluginCost(PluginThreads.cpuNanos() + workersPluginCpu() + state.hookCpuNanos + state.ownStatementCpuNanos, state.jobCpuNanos);
    }

    private long workersPluginCpu()
    {
        return state.workerPluginCpu.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What the plugin's CPU figure counts, each part in milliseconds: every part is a CPU clock, none is wall time. */
    private String costNote()
    {
        return String.format(Locale.ROOT, "plugin CPU %.0f ms, all read from CPU clocks: the coordinator's chiplet-* threads %.0f ms and every worker's "
                        + "(the placement agent; %d workers reported) %.0f ms, as their JVMs count them; the event listeners' and the session property "
                        + "manager's calls %.0f ms, each on its thread's CPU clock; the plugin's own statements (worker reports, schedule publishing) %.0f ms, as Trino counted "
                        + "them; against %.0f ms of CPU of the %d other queries completed",
                cost().pluginCpuNanos() / 1e6, PluginThreads.cpuNanos() / 1e6, state.workerPluginCpu.size(), workersPluginCpu() / 1e6,
                state.hookCpuNanos / 1e6, state.ownStatementCpuNanos / 1e6, state.jobCpuNanos / 1e6, state.queries);
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
                state.windowsRecorded, state.openWindows.values().stream().mapToLong(total -> total.queries).sum()));
        state.schedule.ifPresent(schedule -> notes.add(String.format(Locale.ROOT, "windows of %d ms, one random order for all workers (seed %d), "
                + "schedule version %d", schedule.windowMillis(), schedule.seed(), schedule.version())));
        state.leftOut.forEach((why, count) -> notes.add(String.format(Locale.ROOT, "%d queries left out: %s", count, why.reason())));
        notes.add(String.format(Locale.ROOT, "%d queries completed while measuring", state.queries));
        notes.add(costNote());
        return MeasureReport.of(state.measurement, "Trino catalog " + state.catalog, "switchback windows: the whole cluster alternates placed "
                        + "and control windows in a seeded random order", Noun.regular("window"), Noun.regular("query shape"), clock.instant().toString(), cost(), notes);
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
                report.verdict(), state.leftOut.values().stream().mapToLong(Long::longValue).sum(),
                report.directive().controlShare(), report.guard().placing(), report.cost().share().isPresent() ? Optional.of(report.cost().share().getAsDouble()) : Optional.empty()));
        int needed = state.measurement.plan().minUnitsPerArm();
        for (StratumFigure figure : estimate.figures()) {
            boolean enough = figure.enough(needed);
            rows.add(new ShapeRow(figure.stratum(), state.texts.getOrDefault(shapeOf(figure.stratum()), ""), figure.placed(), figure.control(),
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
        if (state.settings.reportDirectory().isEmpty() || (!evenIfUnchanged && !state.reportDue)) {
            return false;
        }
        state.lastReport = clock.instant();
        state.reportDue = false;
        Path directory = state.settings.reportDirectory().get();
        String base = "chiplet-measure-trino-" + state.catalog.replaceAll("[^A-Za-z0-9_.-]", "_");
        try {
            MeasureReport report = reportAsItStands();
            Files.createDirectories(directory);
            write(directory.resolve(base + ".json"), report.json());
            write(directory.resolve(base + ".html"), report.html());
            return true;
        }
        catch (IOException | RuntimeException e) {
            if (!state.reportFailed) {
                state.reportFailed = true;
                log.warn("Chiplet measurement cannot write its report to {}={}: {}", MeasureKeys.REPORT_DIR, directory, e.toString());
            }
            return false;
        }
    }

    private static void write(Path target, String text)
            throws IOException
    {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
