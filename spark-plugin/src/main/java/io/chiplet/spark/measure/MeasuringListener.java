package io.chiplet.spark.measure;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmEstimate;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.GuardStop;
import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.Noun;
import io.chiplet.measure.PluginCost;
import io.chiplet.measure.UnitObservation;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.settings.MeasureSettings;
import org.apache.spark.Success$;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
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
    static final String DESIGN = "per task: a seeded draw per stage and partition, one control task in each block of 1/share partitions of a stage "
            + "(so every stage of enough tasks has both arms); time per byte (or record) read compared within each stage and control share";

    static final String EXECUTOR_DESIGN = "per executor (spark.chiplet.mode=executor): the first executor placed, each later one drawn in the order "
            + "they start, one control executor in each block of 1/share; control executors lease and bind nothing; time per byte (or record) read "
            + "compared within each stage between tasks of placed and control executors";
    static final String EXECUTOR_CAVEAT = "Executor mode: the executor is the unit drawn, so the interval is over executors (cluster-robust, with the "
            + "smaller arm's executors less one as degrees of freedom) and there is no figure until each arm has two executors; executors still differ "
            + "in host and data beyond their arm, which only more executors average out (docs/measuring.md).";

    private static final Logger log = LoggerFactory.getLogger(MeasuringListener.class);

    private record TaskEnd(String stage, String executorId, UnitObservation withoutArm) {}

    private final MeasureSettings settings;
    private final String applicationName;
    private final Supplier<String> applicationId;
    private final LongSupplier clock;
    private final FailOpenGuard guard = new FailOpenGuard(log, "the driver's measurement", "placement and Spark go on unmeasured");
    private final Measurement measurement;
    private final OwnCpu cpu = new OwnCpu();
    private final Map<Long, DrawnArm> arms = waiting();
    private final Map<Long, TaskEnd> ends = waiting();
    private final Map<String, Long> executorCpu = new ConcurrentHashMap<>();
    private final Map<String, DrawnArm> executorArms = new LinkedHashMap<>();
    private final long startedAt;
    private long jobCpuNanos;
    private long givenUp;
    private long untimed;
    private long lastUpdate = Long.MIN_VALUE;
    private long lastWarn;
    private boolean ended;
    private volatile MeasureReport latest;

    /**
     * @param applicationId read when a report is made: Spark assigns it after the plugins start
     */
    public MeasuringListener(MeasureSettings settings, String applicationName, Supplier<String> applicationId, LongSupplier clock)
    {
        this.settings = requireNonNull(settings, "settings is null");
        this.applicationName = requireNonNull(applicationName, "applicationName is null");
        this.applicationId = requireNonNull(applicationId, "applicationId is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.measurement = new Measurement(settings.plan());
        this.startedAt = clock.getAsLong();
        this.lastWarn = startedAt;
        this.latest = report();
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
        registry.register("measure.pluginCpuShare", (Gauge<Double>) () -> latest.cost().share().orElse(Double.NaN));
    }

    /** An executor's arms; the reply is the directive it places by until its next report. */
    public String receive(ArmReport report)
    {
        return guard.call("measurement receive", () -> {
            long hook = cpu.hookStarted();
            synchronized (this) {
                executorCpu.put(report.executorId(), report.pluginCpuNanos());
                // An executor-mode executor's tasks all have its arm, known here since it asked: nothing to join.
                Map<Long, DrawnArm> taskArms = executorArms.containsKey(report.executorId()) ? Map.of() : report.arms();
                taskArms.forEach((task, arm) -> {
                    TaskEnd end = ends.remove(task);
                    if (end == null) {
                        arms.put(task, arm);
                    }
                    else {
                        record(end, arm);
                    }
                });
                maybeUpdate(false);
                cpu.hookEnded(hook);
                return MeasureMessages.encode(measurement.directive());
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
                long bytes = Math.max(0, metrics.inputMetrics().bytesRead()) + Math.max(0, metrics.shuffleReadMetrics().totalBytesRead());
                long records = Math.max(0, metrics.inputMetrics().recordsRead()) + Math.max(0, metrics.shuffleReadMetrics().recordsRead());
                String stage = "stage " + event.stageId();
                TaskEnd end = new TaskEnd(stage, event.taskInfo().executorId(), new UnitObservation(stage, Arm.PLACED, metrics.executorRunTime() / 1e3, metrics.executorCpuTime() / 1e9,
                        metrics.jvmGCTime() / 1e3, bytes, records));
                long task = event.taskInfo().taskId();
                DrawnArm executorArm = executorArms.get(end.executorId());
                DrawnArm arm = executorArm != null ? executorArm : arms.remove(task);
                if (arm == null) {
                    if (ends.size() >= MAX_WAITING) {
                        givenUp++;
                    }
                    ends.put(task, end);
                }
                else {
                    record(end, arm);
                }
                maybeUpdate(false);
            }
            cpu.hookEnded(hook);
        });
    }

    private void record(TaskEnd end, DrawnArm arm)
    {
        UnitObservation unit = end.withoutArm();
        // Compared within its stage and the share it was drawn at (DrawnArm).
        // A task of an executor-mode executor shares its executor's arm: the executor is the cluster the interval accounts for.
        String cluster = executorArms.containsKey(end.executorId()) ? "executor " + end.executorId() : "";
        measurement.record(new UnitObservation(arm.stratum(unit.stratum()), arm.arm(), unit.seconds(), unit.cpuSeconds(), unit.gcSeconds(), unit.bytesRead(),
                unit.recordsRead(), cluster));
    }

    /** Re-estimates at most once a second (or now); warns when the guard stops placement, and once a minute. */
    private void maybeUpdate(boolean now)
    {
        long time = clock.getAsLong();
        if (!now && lastUpdate != Long.MIN_VALUE && time - lastUpdate < UPDATE_INTERVAL_MS) {
            return;
        }
        lastUpdate = time;
        Measurement.Update update = measurement.update();
        update.stoppedNow().ifPresent(this::warnStopped);
        latest = report();
        if (!now && time - lastWarn >= WARN_INTERVAL_MS && heardFromExecutors()) {
            lastWarn = time;
            log.warn("{}", latest.summaryLine());
        }
    }

    private void warnStopped(GuardStop stop)
    {
        ArmEstimate estimate = stop.estimate();
        log.warn(String.format(Locale.ROOT, "Chiplet plugin stops placing tasks in %s (%s=auto): placed tasks are slower, speed-up %.3fx (95%% CI %.3f-%.3f) "
                        + "from %d placed and %d control tasks in %d stages; every task now runs as without the plugin, measuring goes on. "
                        + "Set %s=always to place regardless.",
                applicationName, MeasureSettings.GUARD, estimate.speedUp().orElseThrow(), estimate.speedUpLow().orElseThrow(), estimate.speedUpHigh().orElseThrow(),
                estimate.placedUnits(), estimate.controlUnits(), estimate.strataCompared(), MeasureSettings.GUARD));
    }

    private MeasureReport report()
    {
        long plugin = cpu.hookNanos() + executorCpu.values().stream().mapToLong(Long::longValue).sum();
        List<String> notes = new java.util.ArrayList<>();
        notes.add("Control tasks share the machine with placed ones, so the control is not a clean 'plugin off': a share of placement's effect on "
                + "shared caches and memory reaches control tasks too and pulls the estimate towards 1 (docs/measuring.md).");
        if (!executorArms.isEmpty()) {
            long control = executorArms.values().stream().filter(arm -> arm.arm() == Arm.CONTROL).count();
            notes.add(String.format(Locale.ROOT, "%d executors in executor mode: %d placed, %d control.", executorArms.size(), executorArms.size() - control, control));
            notes.add(EXECUTOR_CAVEAT);
        }
        if (givenUp > 0 || !ends.isEmpty() || untimed > 0) {
            notes.add(String.format(Locale.ROOT, "%d tasks finished without their arm reaching the driver (an executor's last report lost at its end, "
                    + "or an executor in executor mode); %d tasks ran under 1 ms and were not compared.", ends.size() + givenUp, untimed));
        }
        String design = executorArms.isEmpty() ? DESIGN : executorCpu.keySet().stream().allMatch(executorArms::containsKey) ? EXECUTOR_DESIGN : EXECUTOR_DESIGN + "; executors in task mode: " + DESIGN;
        return MeasureReport.of(measurement, applicationName + " (" + applicationId() + ")", design, Noun.regular("task"), Noun.regular("stage"), Instant.ofEpochMilli(clock.getAsLong()).toString(),
                new PluginCost(plugin, jobCpuNanos), notes);
    }

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd event)
    {
        guard.run("measurement onApplicationEnd", this::finish);
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
            report = latest;
            heard = heardFromExecutors();
        }
        if (heard) {
            log.warn("{}", report.summaryLine());
        }
        else {
            // Executors that switched the plugin off (and warned once) report nothing: no second warning for that.
            log.info("Chiplet placement was not measured: no executor reported its tasks' arms (the plugin is off on the executors)");
        }
        settings.reportDir().ifPresent(directory -> write(directory, report));
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
            log.warn("Chiplet plugin could not write its measurement report to {} ({}): {}", directory, MeasureSettings.REPORT_DIR, e.toString());
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
