package io.chiplet.spark.measure;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.measure.WindowSteps;
import io.chiplet.measure.WindowedDirective;
import io.chiplet.settings.MeasureDesign;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.spark.settings.MeasureKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static java.util.Objects.requireNonNull;

/**
 * The executor's side of the measurement: wraps the task placement in {@link MeasuredTaskPlacement}, and every
 * {@value #REPORT_INTERVAL_MS} ms where tasks ended (every {@value #IDLE_REPORT_INTERVAL_MS} ms when idle) sends the
 * driver the arms of the tasks ended since ({@link ArmReport}, with this
 * JVM's plugin CPU time), taking the driver's {@link Directive} from the reply. A lost message only loses those
 * tasks from the comparison (the driver counts them); the directive stays the last one received.
 */
public final class ExecutorMeasuring
        implements AutoCloseable
{
    /**
     * While tasks end: the driver estimates once a second at most, so more often buys nothing, and each report is an RPC
     * (some 0.6 ms of CPU on a small VM).
     */
    static final long REPORT_INTERVAL_MS = 1_000;
    /** An idle executor asks for the directive only this often: each ask costs CPU on both sides. */
    static final long IDLE_REPORT_INTERVAL_MS = 5_000;
    private static final Logger log = LoggerFactory.getLogger(ExecutorMeasuring.class);

    private record Ended(long taskId, TaskArm arm) {}

    private final String executorId;
    private final UnaryOperator<Object> ask;
    private final MeasurementPlan plan;
    private final MeasureSettings settings;
    private final OwnCpu cpu = new OwnCpu();
    private final ConcurrentLinkedQueue<Ended> ended = new ConcurrentLinkedQueue<>();
    private final String hostKey;
    private final boolean oneL3;
    private final ScheduledExecutorService sender;
    private volatile Directive directive;
    // Windows: a new directive applies from the next window on, so a host never changes arm within a window.
    private volatile WindowedDirective windowed;
    private final SwitchbackSchedule schedule;
    // The window lengths the driver sent: they only grow, from a boundary the driver chose (core's WindowLength).
    private volatile WindowSteps steps = WindowSteps.BASE;
    private long lastReportNanos;
    // Whether tasks ended since this JVM's own CPU was last logged (sender thread only).
    private boolean tasksSinceOwnCpuLine;

    /**
     * @param settings with the seed in force (the one set, or the driver's draw for this application)
     * @param ask the driver's {@code PluginContext.ask}
     * @param hostKey the same for every executor of this host ({@link HostKey#live})
     * @param oneL3 the host has one L3 group: placement has nothing to separate, so no task is control and the
     *         driver hears so
     */
    public ExecutorMeasuring(MeasureSettings settings, String executorId, UnaryOperator<Object> ask, String hostKey, boolean oneL3)
    {
        this.hostKey = requireNonNull(hostKey, "hostKey is null");
        this.oneL3 = oneL3;
        this.settings = requireNonNull(settings, "settings is null");
        this.executorId = requireNonNull(executorId, "executorId is null");
        this.ask = requireNonNull(ask, "ask is null");
        this.plan = settings.plan();
        this.directive = new Directive(settings.enabled() && !oneL3 ? settings.controlShare() : 0, true);
        this.windowed = WindowedDirective.of(directive);
        this.schedule = settings.schedule();
        this.sender = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-measure-arms");
            thread.setDaemon(true);
            return thread;
        });
        sender.scheduleWithFixedDelay(this::report, REPORT_INTERVAL_MS, REPORT_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * {@code placement} with a control arm: by default every executor of this host places or not for a window of time
     * (core's {@link SwitchbackSchedule}, the host drawn by its key); with {@code spark.chiplet.measure.design=task}
     * a share of each stage's tasks. On a host of one L3 group, {@code placement} itself: nothing to compare.
     */
    public TaskPlacement wrap(TaskPlacement placement)
    {
        if (oneL3) {
            return placement;
        }
        TaskArmDraw draw = settings.design() == MeasureDesign.WINDOW
                ? TaskArmDraw.windows(schedule, SwitchbackSchedule.hostStratum(hostKey), window -> windowed.at(window), () -> steps, System::currentTimeMillis)
                : TaskArmDraw.perTask(plan.assignment(), () -> directive);
        return new MeasuredTaskPlacement(placement, draw, this::ended, cpu, injector());
    }

    private void ended(long task, TaskArm arm)
    {
        ended.add(new Ended(task, arm));
    }

    private InjectedTaskDelay injector()
    {
        if (settings.injectTimeRatio().isPresent() && settings.activeInjector().isEmpty()) {
            log.warn("Chiplet plugin ignores {}: a test-only setting, honoured only with -D{}=true", MeasureKeys.INJECT_TIME_RATIO, MeasureSettings.TEST_INJECTOR_PROPERTY);
        }
        return settings.activeInjector().map(InjectedTaskDelay::of).orElse(InjectedTaskDelay.NONE);
    }

    /**
     * Executor mode: every task of this executor has the executor's own arm ({@link #askExecutorArm}); a control
     * executor's {@code placement} is the unplaced one, so its tasks run exactly as without the plugin.
     */
    public TaskPlacement wrapWhole(TaskPlacement placement, DrawnArm executorArm)
    {
        requireNonNull(executorArm, "executorArm is null");
        return new MeasuredTaskPlacement(placement, TaskArmDraw.whole(executorArm), this::ended, cpu, injector());
    }

    /**
     * The driver's draw of this executor's arm; empty when the driver did not answer with one (this executor is then
     * placed as configured and not measured).
     */
    public static Optional<DrawnArm> askExecutorArm(String executorId, UnaryOperator<Object> ask)
    {
        try {
            Optional<Object> reply = MeasureMessages.decode(ask.apply(MeasureMessages.encode(new ExecutorArmRequest(executorId))));
            return reply.isPresent() && reply.get() instanceof DrawnArm arm ? Optional.of(arm) : Optional.empty();
        }
        catch (Exception | LinkageError e) {
            log.warn("Chiplet plugin could not ask the driver whether executor {} is placed or control, it is placed and not measured: {}", executorId, e.toString());
            return Optional.empty();
        }
    }

    public Directive directive()
    {
        return directive;
    }

    /** Sends the arms started since the last report; on the sender thread, and once more at close. */
    void report()
    {
        boolean idle = ended.isEmpty();
        if (idle && System.nanoTime() - lastReportNanos < TimeUnit.MILLISECONDS.toNanos(IDLE_REPORT_INTERVAL_MS)) {
            return;
        }
        lastReportNanos = System.nanoTime();
        if (!idle) {
            tasksSinceOwnCpuLine = true;
        }
        else if (tasksSinceOwnCpuLine) {
            // Once tasks have drained (no task ended for an idle round): a Worker may stop copying this executor's
            // output before its shutdown's line, so the figure is in the log by then.
            tasksSinceOwnCpuLine = false;
            log.info("Chiplet plugin's own CPU on executor {}, read from this JVM's CPU clocks: {} (so far: no task ended in the last {} s)", executorId, cpu.breakdown(),
                    IDLE_REPORT_INTERVAL_MS / 1000);
        }
        try {
            Map<Long, TaskArm> arms = new HashMap<>();
            for (Ended task = ended.poll(); task != null; task = ended.poll()) {
                arms.put(task.taskId(), task.arm());
            }
            Object reply = ask.apply(MeasureMessages.encode(new ArmReport(executorId, cpu.nanos(), arms, hostKey, oneL3)));
            Optional<Object> decoded = MeasureMessages.decode(reply);
            if (decoded.isPresent() && decoded.get() instanceof HostDirective hostDirective && !oneL3) {
                steps = hostDirective.steps();
                receive(hostDirective.directive());
            }
            if (decoded.isPresent() && decoded.get() instanceof Directive latest && !oneL3) {
                receive(latest);
            }
        }
        catch (Exception | LinkageError e) {
            log.debug("Chiplet plugin could not send its task arms to the driver", e);
        }
    }

    private void receive(Directive latest)
    {
        directive = latest;
        // In force from the next (long) window on: the window now ends where the next one starts.
        windowed = windowed.receive(latest, steps.nextWindow(schedule.windowAt(System.currentTimeMillis())) - 1);
    }

    /**
     * Logs this JVM's plugin CPU time part by part ({@link OwnCpu#breakdown}; the figure an outside reading of the
     * threads' clocks, {@code /proc/<pid>/task/<tid>/stat}, can be checked against). The executor calls it first at its
     * shutdown: a Standalone or local-cluster Worker stops copying an executor's output soon after the application ends.
     */
    public void logOwnCpu()
    {
        log.info("Chiplet plugin's own CPU on executor {}, read from this JVM's CPU clocks: {}", executorId, cpu.breakdown());
    }

    /** Sends the last arms (the driver may not answer at its end, and the executor is then killed). */
    @Override
    public void close()
    {
        sender.shutdownNow();
        report();
    }
}
