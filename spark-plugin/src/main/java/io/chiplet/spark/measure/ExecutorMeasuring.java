package io.chiplet.spark.measure;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.MeasurementPlan;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.spark.settings.MeasureSettings;
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
 * {@value #REPORT_INTERVAL_MS} ms where tasks started (every {@value #IDLE_REPORT_INTERVAL_MS} ms when idle) sends the
 * driver the arms of the tasks started since ({@link ArmReport}, with this
 * JVM's plugin CPU time), taking the driver's {@link Directive} from the reply. A lost message only loses those
 * tasks from the comparison (the driver counts them); the directive stays the last one received.
 */
public final class ExecutorMeasuring
        implements AutoCloseable
{
    static final long REPORT_INTERVAL_MS = 500;
    /** An idle executor asks for the directive only this often: each ask costs CPU on both sides. */
    static final long IDLE_REPORT_INTERVAL_MS = 5_000;
    private static final Logger log = LoggerFactory.getLogger(ExecutorMeasuring.class);

    private record Started(long taskId, DrawnArm arm) {}

    private final String executorId;
    private final UnaryOperator<Object> ask;
    private final MeasurementPlan plan;
    private final MeasureSettings settings;
    private final OwnCpu cpu = new OwnCpu();
    private final ConcurrentLinkedQueue<Started> started = new ConcurrentLinkedQueue<>();
    private final ScheduledExecutorService sender;
    private volatile Directive directive;
    private long lastReportNanos;

    /**
     * @param ask the driver's {@code PluginContext.ask}
     */
    public ExecutorMeasuring(MeasureSettings settings, String executorId, UnaryOperator<Object> ask)
    {
        this.settings = requireNonNull(settings, "settings is null");
        this.executorId = requireNonNull(executorId, "executorId is null");
        this.ask = requireNonNull(ask, "ask is null");
        this.plan = settings.plan();
        this.directive = new Directive(settings.enabled() ? settings.controlShare() : 0, true);
        this.sender = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-measure-arms");
            thread.setDaemon(true);
            return thread;
        });
        sender.scheduleWithFixedDelay(this::report, REPORT_INTERVAL_MS, REPORT_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** {@code placement} with a control arm. */
    public TaskPlacement wrap(TaskPlacement placement)
    {
        EffectInjector injector = settings.activeInjection().isPresent() ? EffectInjector.sparkTasks(settings.activeInjection().getAsDouble()) : EffectInjector.NONE;
        if (settings.injectedTimeRatio().isPresent() && settings.activeInjection().isEmpty()) {
            log.warn("Chiplet plugin ignores {}: a test-only setting, honoured only with -D{}=true", MeasureSettings.INJECT_TIME_RATIO, MeasureSettings.TEST_INJECTOR_PROPERTY);
        }
        return new MeasuredTaskPlacement(placement, plan.assignment(), () -> directive, (task, arm) -> started.add(new Started(task, arm)), cpu, injector);
    }

    public Directive directive()
    {
        return directive;
    }

    /** Sends the arms started since the last report; on the sender thread, and once more at close. */
    void report()
    {
        if (started.isEmpty() && System.nanoTime() - lastReportNanos < TimeUnit.MILLISECONDS.toNanos(IDLE_REPORT_INTERVAL_MS)) {
            return;
        }
        lastReportNanos = System.nanoTime();
        try {
            Map<Long, DrawnArm> arms = new HashMap<>();
            for (Started task = started.poll(); task != null; task = started.poll()) {
                arms.put(task.taskId(), task.arm());
            }
            Object reply = ask.apply(MeasureMessages.encode(new ArmReport(executorId, cpu.nanos(), arms)));
            Optional<Object> decoded = MeasureMessages.decode(reply);
            if (decoded.isPresent() && decoded.get() instanceof Directive latest) {
                directive = latest;
            }
        }
        catch (Exception | LinkageError e) {
            log.debug("Chiplet plugin could not send its task arms to the driver", e);
        }
    }

    @Override
    public void close()
    {
        sender.shutdownNow();
        report();
    }
}
