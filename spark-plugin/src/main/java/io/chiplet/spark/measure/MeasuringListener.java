package io.chiplet.spark.measure;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmEstimate;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.GuardStop;
import io.chiplet.measure.LeftOutUnit;
import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.Noun;
import io.chiplet.measure.PluginCost;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.measure.UnitObservation;
import io.chiplet.measure.WindowLength;
import io.chiplet.measure.WindowSteps;
import io.chiplet.settings.MeasureDesign;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.settings.MeasureKeys;
import org.apache.spark.Success$;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The driver's side of the measurement: joins each task's arm (from its executor's {@link ArmReport}) with its
 * metrics (from Spark's task-end event), feeds core's {@link Measurement}, answers executors with its
 * {@link io.chiplet.measure.Directive}, and tells the user: a WARN line when the guard stops placement, one a minute
 * while the application runs, one at its end, the figures as driver metrics ({@code measure.*}), and the report files
 * in {@code spark.chiplet.measure.reportDir}. Task ends arrive on the listener bus, arm reports on RPC threads: both
 * under this object's lock. Any failure here switches only the measurement off (its own guard).
 */
public final class MeasuringListener
        extends SparkListener
{
    static final long UPDATE_INTERVAL_MS = 1_000;
    static final long WARN_INTERVAL_MS = 60_000;
    /** Arms or task ends waiting for their other half; beyond this the oldest are given up (and counted). */
    static final int MAX_WAITING = 200_000;
    static final String DESIGN = "per task (spark.chiplet.measure.design=task): a seeded draw per stage and partition, one control task in each block of 1/share "
            + "partitions of a stage (so every stage of enough tasks has both arms); time per byte (or record) read compared within each stage and control share";
    static final String WINDOW_DESIGN = "switchback windows per host: every executor of a host places or not for a window of time, each host's windows drawn "
            + "from the seed, one control window in each block of 1/share; a task belongs to the window it started in, left out when it started in the washout "
            + "after a switch or ran into a window of the other arm; time per byte (or record) read compared within each stage name and control share, "
            + "the interval over host windows (cluster-robust)";
    static final String TASK_INTERFERENCE = "Control tasks share the machine with placed ones, so the control is not a clean 'plugin off': each arm changes what the "
            + "other sees (caches, memory bandwidth, the kernel's balancing of the unpinned control threads), a bias of unknown sign (docs/measuring.md). "
            + "The default design (switchback windows per host) has no such interference.";
    /** Runs of one key pooled at most: recent enough to be the same job on the same machines. */
    static final int POOLED_RUNS = 20;
    /** The window rule reads the run times of this many latest successful tasks, and decides again every {@value #DECIDE_EVERY}. */
    static final int RUN_TIMES_KEPT = 2_000;
    static final int DECIDE_EVERY = 25;

    static final String EXECUTOR_DESIGN = "per executor (spark.chiplet.mode=executor): the first executor placed, each later one drawn in the order "
            + "they start, one control executor in each block of 1/share; control executors lease and bind nothing; time per byte (or record) read "
            + "compared within each stage between tasks of placed and control executors";
    static final String EXECUTOR_CAVEAT = "Executor mode: the executor is the unit drawn, so the interval is over executors (cluster-robust, with the "
            + "smaller arm's executors less one as degrees of freedom) and there is no figure until each arm has two executors; executors still differ "
            + "in host and data beyond their arm, which only more executors average out (docs/measuring.md).";

    private static final Logger log = LoggerFactory.getLogger(MeasuringListener.class);

    private record TaskEnd(int stageId, String executorId, UnitObservation withoutArm) {}

    private final MeasureSettings settings;
    private final boolean seedSet;
    private final String applicationName;
    private final Supplier<String> applicationId;
    private final LongSupplier clock;
    private final FailOpenGuard guard = new FailOpenGuard(log, "the driver's measurement", "placement and Spark go on unmeasured");
    private final Measurement measurement;
    private final OwnCpu cpu = new OwnCpu();
    private final Map<Long, TaskArm> arms = waiting();
    private final Map<Long, TaskEnd> ends = waiting();
    private final Map<String, Long> executorCpu = new ConcurrentHashMap<>();
    private final Map<String, DrawnArm> executorArms = new LinkedHashMap<>();
    private final Map<String, String> executorHosts = new ConcurrentHashMap<>();
    private final java.util.Set<String> oneL3Executors = ConcurrentHashMap.newKeySet();
    private final Map<Integer, String> stageNames = waitingStages();
    private String firstExecutor;
    private long firstExecutorTasks;
    private long inWashout;
    private long spanning;
    private final long startedAt;
    private long jobCpuNanos;
    private long givenUp;
    private long untimed;
    private long lastUpdate = Long.MIN_VALUE;
    // Tasks recorded (compared or left out) since the last estimate: without any, re-estimating repeats the last one.
    private boolean recordedSinceUpdate;
    private long lastWarn;
    private boolean ended;
    private volatile MeasureReport latest;
    private final Optional<RunHistory> history;
    private final String key;
    private Optional<String> pooled = Optional.empty();
    // Switchback windows' length (core's WindowLength): decided here from the latest tasks' run times, sent with the directive.
    private final WindowLength windowRule;
    private final double[] runMillis = new double[RUN_TIMES_KEPT];
    private int runTimes;
    private int runTimesAtDecision;
    private WindowSteps windowSteps = WindowSteps.BASE;

    /**
     * @param applicationId read when a report is made: Spark assigns it after the plugins start
     */
    public MeasuringListener(MeasureSettings settings, String applicationName, Supplier<String> applicationId, LongSupplier clock)
    {
        this(settings, applicationName, applicationId, clock, new java.security.SecureRandom()::nextLong);
    }

    /**
     * @param seedDraw draws this application's seed where {@code spark.chiplet.measure.seed} is unset
     */
    public MeasuringListener(MeasureSettings settings, String applicationName, Supplier<String> applicationId, LongSupplier clock, LongSupplier seedDraw)
    {
        requireNonNull(settings, "settings is null");
        this.seedSet = settings.seed().isPresent();
        this.settings = settings.withSeed(seedDraw.getAsLong());
        this.applicationName = requireNonNull(applicationName, "applicationName is null");
        this.applicationId = requireNonNull(applicationId, "applicationId is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.windowRule = settings.design() == MeasureDesign.WINDOW ? WindowLength.of(settings.window().toMillis()) : WindowLength.fixed(settings.window().toMillis());
        this.measurement = new Measurement(this.settings.plan());
        this.startedAt = clock.getAsLong();
        this.lastWarn = startedAt;
        this.key = settings.key().orElse(applicationName);
        this.history = openHistory(settings.historyDirectory().orElseGet(() -> RunHistory.defaultDirectory(System.getenv(), System.getProperty("user.home"))));
        this.latest = report();
    }

    private static Map<Integer, String> waitingStages()
    {
        return new LinkedHashMap<>(64, 0.75f, false)
        {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, String> eldest)
            {
                return size() > MAX_WAITING;
            }
        };
    }

    /** The history of runs, checked at the start: a directory that cannot be written is said once, and runs do not add up. */
    private static Optional<RunHistory> openHistory(Path directory)
    {
        StringBuilder problem = new StringBuilder();
        Optional<RunHistory> opened = RunHistory.open(directory, problem);
        if (opened.isEmpty()) {
            log.warn("Chiplet plugin cannot keep this application's measured runs ({}): {}; each run's figure stands alone", MeasureKeys.HISTORY_DIR, problem);
        }
        return opened;
    }

    private static <V> Map<Long, V> waiting()
    {
        return new LinkedHashMap<>(1024, 0.75f, false)
        {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, V> eldest)
            {
                return size() > MAX_WAITING;
            }
        };
    }

    /** The figures as gauges of the driver's plugin source, so its sinks (the Prometheus servlet among them) show them. */
    public void register(MetricRegistry registry)
    {
        registry.register("measure.speedUp", (Gauge<Double>) () -> latest.estimate().speedUp().orElse(Double.NaN));
        registry.register("measure.speedUpLow", (Gauge<Double>) () -> latest.estimate().speedUpLow().orElse(Double.NaN));
        registry.register("measure.speedUpHigh", (Gauge<Double>) () -> latest.estimate().speedUpHigh().orElse(Double.NaN));
        registry.register("measure.tasks.placed", (Gauge<Integer>) () -> latest.estimate().placedUnits());
        registry.register("measure.tasks.control", (Gauge<Integer>) () -> latest.estimate().controlUnits());
        registry.register("measure.stages", (Gauge<Integer>) () -> latest.estimate().strataCompared());
        registry.register("measure.controlShare", (Gauge<Double>) () -> latest.directive().controlShare());
        registry.register("measure.placing", (Gauge<Integer>) () -> latest.guard().placing() ? 1 : 0);
        registry.register("measure.pluginCpuShare", (Gauge<Double>) () -> cost().share().orElse(Double.NaN));
    }

    /** An executor's arms; the reply is the directive it places by until its next report. */
    public String receive(ArmReport report)
    {
        return guard.call("measurement receive", () -> {
            long hook = cpu.hookStarted();
            synchronized (this) {
                executorCpu.put(report.executorId(), report.pluginCpuNanos());
                executorHosts.put(report.executorId(), report.hostKey());
                if (report.oneL3()) {
                    oneL3Executors.add(report.executorId());
                }
                // An executor-mode executor's tasks all have its arm, known here since it asked: nothing to join.
                Map<Long, TaskArm> taskArms = executorArms.containsKey(report.executorId()) ? Map.of() : report.arms();
                taskArms.forEach((task, arm) -> {
                    TaskEnd end = ends.remove(task);
                    if (end == null) {
                        arms.put(task, arm);
                    }
                    else {
                        record(end, arm);
                    }
                });
                // The estimate is timed on its own (every call), not as part of this sampled hook.
                cpu.hookEnded(hook);
                maybeUpdate(false);
                return settings.design() == MeasureDesign.WINDOW ? MeasureMessages.encode(new HostDirective(measurement.directive(), windowSteps))
                        : MeasureMessages.encode(measurement.directive());
            }
        }, MeasureMessages.encode(new io.chiplet.measure.Directive(0, true)));
    }

    /**
     * Draws the arm of an executor in executor mode, in the order executors ask: the first is placed (core's
     * {@link io.chiplet.measure.ArmAssignment#ofProcess}); an executor that asks again gets its first answer.
     */
    public String receive(ExecutorArmRequest request)
    {
        return guard.call("measurement executor arm", () -> {
            synchronized (this) {
                if (executorArms.isEmpty()) {
                    // Always placed (ArmAssignment.ofProcess): not a randomised unit, so its tasks are not compared.
                    firstExecutor = request.executorId();
                }
                DrawnArm arm = executorArms.computeIfAbsent(request.executorId(),
                        executor -> measurement.directive().drawProcess(settings.plan().assignment(), executorArms.size()));
                latest = report();
                return MeasureMessages.encode(arm);
            }
        }, MeasureMessages.encode(new DrawnArm(Arm.PLACED, 0)));
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd event)
    {
        guard.run("measurement onTaskEnd", () -> {
            long hook = cpu.hookStarted();
            TaskMetrics metrics = event.taskMetrics();
            synchronized (this) {
                if (metrics != null) {
                    jobCpuNanos += Math.max(0, metrics.executorCpuTime());
                }
                if (metrics == null || !(event.reason() instanceof Success$) || ended) {
                    cpu.hookEnded(hook);
                    return;
                }
                if (metrics.executorRunTime() <= 0) {
                    // Spark times tasks in whole milliseconds: a task under one has no time to compare.
                    untimed++;
                    cpu.hookEnded(hook);
                    return;
                }
                decideWindow(metrics.executorRunTime());
                long bytes = Math.max(0, metrics.inputMetrics().bytesRead()) + Math.max(0, metrics.shuffleReadMetrics().totalBytesRead());
                long records = Math.max(0, metrics.inputMetrics().recordsRead()) + Math.max(0, metrics.shuffleReadMetrics().recordsRead());
                String stage = "stage " + event.stageId();
                TaskEnd end = new TaskEnd(event.stageId(), event.taskInfo().executorId(), new UnitObservation(stage, Arm.PLACED, metrics.executorRunTime() / 1e3, metrics.executorCpuTime() / 1e9,
                        metrics.jvmGCTime() / 1e3, bytes, records));
                long task = event.taskInfo().taskId();
                DrawnArm executorArm = executorArms.get(end.executorId());
                TaskArm arm = executorArm != null ? TaskArm.of(executorArm) : arms.remove(task);
                if (arm == null) {
                    if (ends.size() >= MAX_WAITING) {
                        givenUp++;
                    }
                    ends.put(task, end);
                }
                else {
                    record(end, arm);
                }
                // The estimate is timed on its own (every call), not as part of this sampled hook.
                cpu.hookEnded(hook);
                maybeUpdate(false);
            }
        });
    }

    /**
     * Keeps a successful task's run time and, every {@value #DECIDE_EVERY} of them, applies the window rule: a longer
     * window applies from the next boundary of its length after the current base window, sent with the next replies.
     */
    private void decideWindow(long runTimeMillis)
    {
        // Executor mode (executors asked for their arm) has no windows.
        if (windowSteps.latestExponent() >= windowRule.maxExponent() || !executorArms.isEmpty()) {
            return;
        }
        runMillis[runTimes++ % RUN_TIMES_KEPT] = runTimeMillis;
        if (runTimes - runTimesAtDecision < DECIDE_EVERY) {
            return;
        }
        runTimesAtDecision = runTimes;
        int exponent = windowRule.exponent(windowSteps.latestExponent(), java.util.Arrays.copyOf(runMillis, Math.min(runTimes, RUN_TIMES_KEPT)));
        WindowSteps grown = windowSteps.grow(exponent, Math.floorDiv(clock.getAsLong(), windowRule.baseMillis()) + 1);
        if (!grown.equals(windowSteps)) {
            windowSteps = grown;
            WindowSteps.Step step = grown.steps().get(grown.steps().size() - 1);
            log.info("Chiplet plugin lengthens its switchback windows to {} ms (from {} ms) from {} on: windows are to be at least {} times the latest tasks' "
                            + "{}th percentile run time (docs/measuring.md, \"Choosing the window\")", windowRule.windowMillis(exponent),
                    windowRule.windowMillis(grown.steps().get(grown.steps().size() - 2).exponent()), java.time.Instant.ofEpochMilli(step.fromWindow() * windowRule.baseMillis()),
                    windowRule.factor(), Math.round(100 * windowRule.quantile()));
        }
    }

    /** The window lengths in force, as sent to executors. */
    synchronized WindowSteps windowSteps()
    {
        return windowSteps;
    }

    private void record(TaskEnd end, TaskArm arm)
    {
        recordedSinceUpdate = true;
        if (end.executorId().equals(firstExecutor)) {
            firstExecutorTasks++;
            return;
        }
        UnitObservation unit = end.withoutArm();
        DrawnArm drawn = arm.drawn();
        String stratum = unit.stratum();
        String cluster = "";
        if (arm.window() != TaskArm.NO_WINDOW) {
            // Windows: a stage rarely outlasts one window, so stages of one name (the same code run again) are compared
            // across windows; the window of the task's host is the cluster its arm was drawn for.
            stratum = "stage '" + stageNames.getOrDefault(end.stageId(), "stage " + end.stageId() + "'");
            cluster = SwitchbackSchedule.cluster(executorHosts.getOrDefault(end.executorId(), "executor " + end.executorId()), arm.window());
        }
        else if (executorArms.containsKey(end.executorId())) {
            // A task of an executor-mode executor shares its executor's arm: the executor is the cluster.
            cluster = "executor " + end.executorId();
        }
        if (arm.exclusion().isPresent()) {
            if (arm.exclusion().get() == SwitchbackSchedule.Exclusion.WASHOUT) {
                inWashout++;
            }
            else {
                spanning++;
            }
            // Not compared (its arm is ambiguous), but its work is the job's: core counts it in its stage's size class.
            measurement.recordLeftOut(new LeftOutUnit(drawn.stratum(stratum), unit.seconds(), unit.bytesRead(), unit.recordsRead()));
            return;
        }
        // Compared within its stratum and the share it was drawn at (DrawnArm).
        measurement.record(new UnitObservation(drawn.stratum(stratum), drawn.arm(), unit.seconds(), unit.cpuSeconds(), unit.gcSeconds(), unit.bytesRead(),
                unit.recordsRead(), cluster));
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted event)
    {
        guard.run("measurement onStageSubmitted", () -> {
            synchronized (this) {
                // A stage's name (its call site) and its number of tasks: a query's map and reduce stages share a call site.
                stageNames.put(event.stageInfo().stageId(), event.stageInfo().name() + "' of " + event.stageInfo().numTasks() + " tasks");
            }
        });
    }

    /** The seed of this application's arms: the one set, or the one the driver drew (recorded in the report). */
    public long seed()
    {
        return settings.plan().seed();
    }

    /**
     * Re-estimates at most once a second where tasks were recorded since the last estimate (or now); warns when the
     * guard stops placement, and once a minute. Without new tasks the estimate, the guard's look and the report would
     * repeat the last ones: an idle or arm-only second costs nothing. Timed on the thread's CPU clock on every call
     * (it runs at most once a second), apart from the sampled hooks.
     */
    private void maybeUpdate(boolean now)
    {
        long time = clock.getAsLong();
        if (!now && lastUpdate != Long.MIN_VALUE && time - lastUpdate < UPDATE_INTERVAL_MS) {
            return;
        }
        if (!now && !recordedSinceUpdate && lastUpdate != Long.MIN_VALUE) {
            warnOnceAMinute(time);
            return;
        }
        long started = cpu.exactStarted();
        lastUpdate = time;
        recordedSinceUpdate = false;
        Measurement.Update update = measurement.update();
        update.stoppedNow().ifPresent(this::warnStopped);
        latest = report();
        cpu.exactEnded(started);
        if (!now) {
            warnOnceAMinute(time);
        }
    }

    private void warnOnceAMinute(long time)
    {
        if (time - lastWarn >= WARN_INTERVAL_MS && heardFromExecutors()) {
            lastWarn = time;
            log.warn("{}", summaryLine());
        }
    }

    /** The plugin's CPU time against the job's, now: the driver's own parts and each executor's last report. */
    private synchronized PluginCost cost()
    {
        return new PluginCost(driverNanos() + executorNanos(), jobCpuNanos);
    }

    private long driverNanos()
    {
        return cpu.hookNanos() + cpu.exactNanos();
    }

    private long executorNanos()
    {
        return executorCpu.values().stream().mapToLong(Long::longValue).sum();
    }

    private void warnStopped(GuardStop stop)
    {
        ArmEstimate estimate = stop.estimate();
        log.warn(String.format(Locale.ROOT, "Chiplet plugin stops placing tasks in %s (%s=auto): placed tasks are slower, speed-up %.3fx (95%% CI %.3f-%.3f) "
                        + "from %d placed and %d control tasks in %d stages; every task now runs as without the plugin, measuring goes on. "
                        + "Set %s=always to place regardless.",
                applicationName, MeasureKeys.GUARD, estimate.speedUp().orElseThrow(), estimate.speedUpLow().orElseThrow(), estimate.speedUpHigh().orElseThrow(),
                estimate.placedUnits(), estimate.controlUnits(), estimate.strataCompared(), MeasureKeys.GUARD));
    }

    private MeasureReport report()
    {
        long plugin = driverNanos() + executorNanos();
        List<String> notes = new java.util.ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Plugin CPU %.1f ms, all read from CPU clocks: %d executors' %.1f ms (their chiplet-* threads and task hooks, "
                        + "as each last reported), the driver's listener %.1f ms (its hooks on Spark's threads, 1 in %d calls timed) and its estimates "
                        + "and reports %.1f ms (each timed); not counted: the driver plugin's other statements.",
                plugin / 1e6, executorCpu.size(), executorNanos() / 1e6, cpu.hookNanos() / 1e6, OwnCpu.SAMPLE_EVERY, cpu.exactNanos() / 1e6));
        boolean windows = settings.design() == MeasureDesign.WINDOW;
        notes.add(String.format(Locale.ROOT, "Seed %d (%s).", seed(), seedSet ? "set" : "drawn for this application"));
        if (windows) {
            notes.add(String.format(Locale.ROOT, "Windows of %d ms per host, washout %d ms: %d tasks left out as started in a washout, %d as spanning a switch.",
                    settings.window().toMillis(), settings.washout().toMillis(), inWashout, spanning));
            if (windowSteps.latestExponent() > 0) {
                WindowSteps.Step step = windowSteps.steps().get(windowSteps.steps().size() - 1);
                notes.add(String.format(Locale.ROOT, "Windows lengthened to %d ms from %s on by the window rule (at least %.0f times the tasks' %dth percentile run time).",
                        windowRule.windowMillis(step.exponent()), java.time.Instant.ofEpochMilli(step.fromWindow() * windowRule.baseMillis()), windowRule.factor(),
                        Math.round(100 * windowRule.quantile())));
            }
        }
        if (!windows && executorArms.isEmpty()) {
            notes.add(TASK_INTERFERENCE);
        }
        if (firstExecutor != null) {
            notes.add(String.format(Locale.ROOT, "%d tasks of the first executor (%s, always placed, not a randomised unit) not compared.", firstExecutorTasks, firstExecutor));
        }
        if (!executorArms.isEmpty()) {
            long control = executorArms.values().stream().filter(arm -> arm.arm() == Arm.CONTROL).count();
            notes.add(String.format(Locale.ROOT, "%d executors in executor mode: %d placed, %d control.", executorArms.size(), executorArms.size() - control, control));
            notes.add(EXECUTOR_CAVEAT);
        }
        if (givenUp > 0 || !ends.isEmpty() || untimed > 0) {
            notes.add(String.format(Locale.ROOT, "%d tasks finished without their arm reaching the driver (an executor's last report lost at its end, "
                    + "or an executor in executor mode); %d tasks ran under 1 ms and were not compared.", ends.size() + givenUp, untimed));
        }
        String design = executorArms.isEmpty() ? (windows ? WINDOW_DESIGN : DESIGN) : executorCpu.keySet().stream().allMatch(executorArms::containsKey) ? EXECUTOR_DESIGN : EXECUTOR_DESIGN + "; executors in task mode: " + DESIGN;
        pooled.ifPresent(notes::add);
        String subject = applicationName + " (" + applicationId() + ")";
        String generatedAt = Instant.ofEpochMilli(clock.getAsLong()).toString();
        if (isOneL3()) {
            return MeasureReport.notMeasured(measurement.plan(), subject, design, Noun.regular("task"), Noun.regular("stage"), generatedAt, MeasureReport.ONE_L3_GROUP,
                    new PluginCost(plugin, jobCpuNanos), notes);
        }
        return MeasureReport.of(measurement, subject, design, Noun.regular("task"), Noun.regular("stage"), generatedAt, new PluginCost(plugin, jobCpuNanos), notes);
    }

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd event)
    {
        guard.run("measurement onApplicationEnd", this::finish);
    }

    /** Whether every executor heard from has one L3 group: nothing was measured. */
    private boolean isOneL3()
    {
        return !oneL3Executors.isEmpty() && oneL3Executors.containsAll(executorCpu.keySet());
    }

    /** The line the user reads: the report's, with the pooled runs of this application's key once it ended. */
    public String summaryLine()
    {
        MeasureReport report = latest;
        return report.summaryLine() + pooled.map(line -> "; " + line).orElse("");
    }

    private synchronized boolean heardFromExecutors()
    {
        return !executorCpu.isEmpty() || !executorArms.isEmpty();
    }

    /** The last update, the end's WARN line and the report files. */
    void finish()
    {
        MeasureReport report;
        boolean heard;
        synchronized (this) {
            if (ended) {
                return;
            }
            maybeUpdate(true);
            ended = true;
            heard = heardFromExecutors();
        }
        if (heard) {
            pooled = addToHistory(latest);
            synchronized (this) {
                latest = report();
            }
        }
        report = latest;
        if (heard) {
            log.warn("{}", summaryLine());
        }
        else {
            // Executors that switched the plugin off (and warned once) report nothing: no second warning for that.
            log.info("Chiplet placement was not measured: no executor reported its tasks' arms (the plugin is off on the executors)");
        }
        settings.reportDirectory().ifPresent(directory -> write(directory, report));
    }

    /** Appends this run's record to the history and pools the key's last runs; empty where there is no history or no run with a figure. */
    private Optional<String> addToHistory(MeasureReport report)
    {
        if (history.isEmpty()) {
            return Optional.empty();
        }
        try {
            Optional<io.chiplet.measure.RunRecord> run = io.chiplet.measure.RunRecord.of(key, applicationId(), Instant.ofEpochMilli(clock.getAsLong()), seed(), report.estimate());
            if (run.isPresent()) {
                history.get().append(run.get());
            }
            RunHistory.Read read = history.get().read();
            if (read.skipped() > 0) {
                log.info("Chiplet plugin skipped {} lines of {} it could not read", read.skipped(), history.get().file());
            }
            if (read.runs().stream().noneMatch(record -> record.key().equals(key))) {
                return Optional.empty();
            }
            return Optional.of(io.chiplet.measure.PooledRuns.lastOf(key, read.runs(), POOLED_RUNS).summaryLine()
                    + (read.skipped() > 0 ? String.format(Locale.ROOT, " (%d unreadable lines of the history skipped)", read.skipped()) : ""));
        }
        catch (IOException | RuntimeException e) {
            log.warn("Chiplet plugin could not add this run to {} ({}): {}", history.get().file(), MeasureKeys.HISTORY_DIR, e.toString());
            return Optional.empty();
        }
    }

    private void write(Path directory, MeasureReport report)
    {
        String name = "chiplet-measure-" + applicationId().replaceAll("[^A-Za-z0-9._-]", "_");
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(name + ".json"), report.json(), StandardCharsets.UTF_8);
            Files.writeString(directory.resolve(name + ".html"), report.html(), StandardCharsets.UTF_8);
            log.info("Chiplet plugin wrote its measurement report to {}", directory.resolve(name + ".html"));
        }
        catch (IOException | RuntimeException e) {
            log.warn("Chiplet plugin could not write its measurement report to {} ({}): {}", directory, MeasureKeys.REPORT_DIR, e.toString());
        }
    }

    private String applicationId()
    {
        String id = applicationId.get();
        return id == null ? "unknown-application" : id;
    }

    /** The report as it stands. */
    public MeasureReport latest()
    {
        return latest;
    }
}
