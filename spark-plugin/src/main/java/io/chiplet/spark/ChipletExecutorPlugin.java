package io.chiplet.spark;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;
import org.apache.spark.TaskContext;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The executor's half: reads the machine, reports it to the driver, and places each task through a
 * {@link TaskPlacement}. Spark calls the task hooks on the task's own thread, so the handle of a running task lives
 * in a thread local between start and end.
 */
public final class ChipletExecutorPlugin
        implements ExecutorPlugin
{
    private static final Logger log = LoggerFactory.getLogger(ChipletExecutorPlugin.class);

    private final TopologySource topologySource;
    private final TaskPlacementFactory placementFactory;
    private final Supplier<TaskPlacement.TaskIdentity> currentTask;
    private final FailOpen guard = new FailOpen(log, "this executor");
    private final ThreadLocal<TaskPlacement.Handle> running = new ThreadLocal<>();
    private volatile TaskPlacement placement = new UnplacedTaskPlacement();
    private volatile PlacementMetrics metrics;
    private volatile SpreadHints hints = SpreadHints.NONE;

    public ChipletExecutorPlugin(TopologySource topologySource, TaskPlacementFactory placementFactory)
    {
        this(topologySource, placementFactory, ChipletExecutorPlugin::sparkTask);
    }

    ChipletExecutorPlugin(TopologySource topologySource, TaskPlacementFactory placementFactory, Supplier<TaskPlacement.TaskIdentity> currentTask)
    {
        this.topologySource = requireNonNull(topologySource, "topologySource is null");
        this.placementFactory = requireNonNull(placementFactory, "placementFactory is null");
        this.currentTask = requireNonNull(currentTask, "currentTask is null");
    }

    private static TaskPlacement.TaskIdentity sparkTask()
    {
        TaskContext task = TaskContext.get();
        return new TaskPlacement.TaskIdentity(task.stageId(), task.partitionId(), task.taskAttemptId());
    }

    @Override
    public void init(PluginContext context, Map<String, String> extraConf)
    {
        guard.run("executor init", () -> start(context, extraConf));
    }

    private void start(PluginContext context, Map<String, String> extraConf)
    {
        if (extraConf.containsKey(ChipletDriverPlugin.DISABLED_BY_DRIVER)) {
            guard.disableQuietly("switched off by the driver: " + extraConf.get(ChipletDriverPlugin.DISABLED_BY_DRIVER));
            return;
        }
        ChipletSettings.Parsed parsed = ChipletSettings.parse(SparkConfs.toMap(context.conf()));
        if (parsed instanceof ChipletSettings.Problem problem) {
            guard.disable(problem.message());
            return;
        }
        ChipletSettings settings = ((ChipletSettings.Valid) parsed).settings();
        if (!settings.enabled()) {
            guard.disableQuietly(ChipletSettings.ENABLED + " is false");
            return;
        }
        // The snapshot is read on this host, which may not be the driver's: check it here.
        Optional<ChipletSettings.Problem> snapshotProblem = settings.checkFsRoot();
        if (snapshotProblem.isPresent()) {
            guard.disable(snapshotProblem.get().message());
            return;
        }
        Topology topology = topologySource.read(settings);
        PlacementMetrics placementMetrics = new PlacementMetrics(usableChipletIds(topology));
        int taskSlots = ExecutorSlots.of(SparkConfs.toMap(context.conf()), topology.allowed().size());
        placement = placementFactory.create(new PlacementContext(settings, topology, placementMetrics, taskSlots, context.executorID(), () -> askHints(context)));
        placementMetrics.register(context.metricRegistry());
        metrics = placementMetrics;
        ChipletSummary summary = placement.summary(topology);
        log.info("Chiplet plugin on executor {}: {} chiplets of {} cores (from {}), {} task slots, mode {}, policy {}",
                context.executorID(), summary.chiplets(), summary.coresPerChiplet(), topology.source(), taskSlots, settings.mode().configName(), settings.policy());
        report(context, new TopologyReport(context.executorID(), ExecutorHost.of(context), settings.mode(), summary));
    }

    private static List<Integer> usableChipletIds(Topology topology)
    {
        return topology.chiplets().stream()
                .filter(chiplet -> chiplet.cpus().intersects(topology.allowed()))
                .map(Chiplet::id)
                .toList();
    }

    /** The adaptive controller's periodic question; on its thread, never a task's. */
    private SpreadHints askHints(PluginContext context)
    {
        Object reply;
        try {
            reply = context.ask(PluginMessages.encode(new SpreadHintRequest(context.executorID())));
        }
        catch (Exception e) {
            throw new IllegalStateException("the driver did not answer: " + e, e);
        }
        if (PluginMessages.decode(reply) instanceof SpreadHints latest) {
            hints = latest;
        }
        return hints;
    }

    private void report(PluginContext context, TopologyReport report)
    {
        try {
            if (PluginMessages.decode(context.ask(PluginMessages.encode(report))) instanceof SpreadHints reply) {
                hints = reply;
            }
        }
        catch (Exception e) {
            // Placement on this executor still works; only the driver's partition sizing misses this executor.
            log.warn("Chiplet plugin could not report executor {}'s chiplets to the driver, partition settings stay as they are: {}", report.executorId(), e.toString());
        }
    }

    @Override
    public void onTaskStart()
    {
        guard.run("onTaskStart", () -> {
            TaskPlacement.Handle handle = placement.onTaskStart(currentTask.get());
            running.set(handle);
            metrics.taskStarted(handle.chiplet());
        });
    }

    @Override
    public void onTaskSucceeded()
    {
        end("onTaskSucceeded", false);
    }

    @Override
    public void onTaskFailed(TaskFailedReason reason)
    {
        end("onTaskFailed", true);
    }

    private void end(String entryPoint, boolean failed)
    {
        TaskPlacement.Handle handle = running.get();
        if (handle == null) {
            return;
        }
        running.remove();
        // Even when switched off since the start: the thread is reused and must not stay placed.
        guard.runAlways(entryPoint, () -> {
            placement.onTaskEnd(handle);
            if (failed) {
                metrics.taskFailed();
            }
        });
    }

    /** The driver's latest spread hints: from the report's reply, then from the adaptive controller's asks. */
    SpreadHints hints()
    {
        return hints;
    }

    @Override
    public void shutdown()
    {
        PlacementMetrics placementMetrics = metrics;
        if (guard.active() && placementMetrics != null) {
            log.info("{}", placementMetrics.summaryLine());
        }
        guard.runAlways("executor shutdown", placement::close);
    }
}
