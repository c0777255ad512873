package io.chiplet.spark.executor;

import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.measure.Arm;
import io.chiplet.measure.DrawnArm;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.report.MachinePicture;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PlacementMode;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.driver.ChipletDriverPlugin;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.measure.ExecutorMeasuring;
import io.chiplet.spark.measure.HostKey;
import io.chiplet.spark.measure.MeasuredTaskPlacement;
import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.placement.ExecutorProcessPlacement;
import io.chiplet.spark.placement.PlacementContext;
import io.chiplet.spark.placement.PlacementMetrics;
import io.chiplet.spark.placement.PythonWorkerPlacement;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.spark.placement.TaskPlacementFactory;
import io.chiplet.spark.placement.UnplacedTaskPlacement;
import io.chiplet.spark.settings.MeasureKeys;
import io.chiplet.spark.settings.SparkConfs;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.spark.topology.ExecutorChiplets;
import io.chiplet.spark.topology.TopologySource;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.apache.spark.TaskContext;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.executor.TaskMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
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
    private final FailOpenGuard guard = new FailOpenGuard(log, "this executor");
    private final ThreadLocal<TaskPlacement.Handle> running = new ThreadLocal<>();
    private final ThreadLocal<TaskContext> runningContext = new ThreadLocal<>();
    /** The running task's identity and start: Spark unsets its context before the end hooks run. */
    private record Started(TaskPlacement.TaskIdentity task, long nanos) {}

    private final ThreadLocal<Started> runningSince = new ThreadLocal<>();
    private volatile TaskPlaceLog taskPlaces;
    private volatile TaskPlacement placement = new UnplacedTaskPlacement();
    private volatile PlacementMetrics metrics;
    private volatile DriverLink driver;
    private volatile ExecutorChiplets hostShare;
    private volatile PlacementCountsSender counts;
    private volatile CpusetFollower cpuset;
    private volatile PythonWorkerPlacement python = PythonWorkerPlacement.off();
    private volatile ExecutorMeasuring measuring;

    public ChipletExecutorPlugin(TopologySource topologySource, TaskPlacementFactory placementFactory)
    {
        this(topologySource, placementFactory, ChipletExecutorPlugin::sparkTask);
    }

    public ChipletExecutorPlugin(TopologySource topologySource, TaskPlacementFactory placementFactory, Supplier<TaskPlacement.TaskIdentity> currentTask)
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
        guard.run("executor init", () -> {
            try {
                start(context, extraConf);
            }
            catch (RuntimeException | Error e) {
                releaseAfterFailedStart(e);
                throw e;
            }
        });
    }

    /**
     * The guard switches the plugin off after a failed start; give back the lease and binding taken by then, so other
     * executors on the host do not avoid a chiplet nobody uses until this one shuts down.
     */
    private void releaseAfterFailedStart(Throwable failure)
    {
        TaskPlacement started = placement;
        placement = new UnplacedTaskPlacement();
        ExecutorChiplets share = hostShare;
        hostShare = null;
        try {
            started.close();
        }
        catch (RuntimeException | LinkageError e) {
            failure.addSuppressed(e);
        }
        if (share != null) {
            try {
                share.close();
            }
            catch (RuntimeException | LinkageError e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** The steps of an executor's start, in order; any failure of one switches the plugin off ({@link #init}). */
    private void start(PluginContext context, Map<String, String> extraConf)
    {
        // Spark's configuration as entries, once: the settings, the machine and the measurement all read it.
        Map<String, String> conf = SparkConfs.toMap(context.conf());
        Optional<PlacementSettings> enabled = enabledSettings(conf, extraConf);
        if (enabled.isEmpty()) {
            return;
        }
        PlacementSettings settings = enabled.get();
        ExecutorMachine machine = ExecutorMachine.read(topologySource, settings, conf, context.executorID());
        DriverLink driverLink = new DriverLink(context, log);
        driver = driverLink;
        LeaseCoordinator leaseCoordinator = driverLink.leaseCoordinator();
        ExecutorChiplets share = claimHostShare(machine, settings, context.executorID(), leaseCoordinator);
        Topology topology = share.topology();
        PlacementDomain usable = PlacementDomain.of(topology);
        PlacementMetrics contextMetrics = new PlacementMetrics(usable.ids());
        MeasureSettings measureSettings = measureSettings(conf, extraConf);
        Optional<DrawnArm> executorArm = drawExecutorArm(context.executorID(), machine.mode(), measureSettings, driverLink);
        boolean control = executorArm.isPresent() && executorArm.get().arm() == Arm.CONTROL;
        placement = control
                ? new UnplacedTaskPlacement()
                : placementFactory.create(new PlacementContext(settings.withMode(machine.mode()), topology, contextMetrics, machine.taskSlots(), context.executorID(),
                        driverLink::askHints, leaseCoordinator));
        measure(context, machine.mode(), measureSettings, executorArm, machine.oneL3(), driverLink);
        List<Integer> placedOn = placement.chipletIds(usable.ids());
        PlacementMetrics placementMetrics = registerMetrics(context, usable, placedOn, contextMetrics);
        PartitionBasis summary = placement.summary(topology);
        logStart(context.executorID(), settings, machine, share, usable, placedOn, control);
        installPythonWorkers(context, extraConf, machine.mode());
        reportMachine(context, driverLink, machine, share, summary, control ? "" : cpusOf(usable, placedOn));
        TaskPlaceLog places = new TaskPlaceLog(context.executorID());
        taskPlaces = places;
        counts = PlacementCountsSender.start(context, placementMetrics, places, log);
        cpuset = CpusetFollower.start(context.executorID(), topology, placementMetrics, after -> placement.allowedCpusChanged(after), guard, log);
    }

    /** The plugin's settings, where the driver left it on and they are valid and enabled; empty once the guard is switched off. */
    private Optional<PlacementSettings> enabledSettings(Map<String, String> conf, Map<String, String> extraConf)
    {
        if (extraConf.containsKey(ChipletDriverPlugin.DISABLED_BY_DRIVER)) {
            guard.disableQuietly("switched off by the driver: " + extraConf.get(ChipletDriverPlugin.DISABLED_BY_DRIVER));
            return Optional.empty();
        }
        // This machine's own snapshot root (CHIPLET_FS_ROOT from the Worker's environment) where the application sets none.
        SparkSettings.Parsed parsed = SparkSettings.parse(SparkSettings.withHostFsRoot(conf, System.getenv()));
        if (parsed instanceof SparkSettings.Problem problem) {
            guard.disable(problem.message());
            return Optional.empty();
        }
        PlacementSettings settings = ((SparkSettings.Valid) parsed).settings();
        if (!settings.enabled()) {
            guard.disableQuietly(SparkSettings.ENABLED + " is false");
            return Optional.empty();
        }
        // The snapshot is read on this host, which may not be the driver's: check it here.
        Optional<SparkSettings.Problem> snapshotProblem = SparkSettings.checkFsRoot(settings);
        if (snapshotProblem.isPresent()) {
            guard.disable(snapshotProblem.get().message());
            return Optional.empty();
        }
        return Optional.of(settings);
    }

    /**
     * Task mode places within this executor's share of the host; executor mode leases its chiplet itself. Kept at once,
     * so that a failed start gives it back.
     */
    private ExecutorChiplets claimHostShare(ExecutorMachine machine, PlacementSettings settings, String executorId, LeaseCoordinator leaseCoordinator)
    {
        ExecutorChiplets share = machine.mode() == PlacementMode.TASK
                ? ExecutorChiplets.claim(machine.host(), machine.cores(), executorId, settings.leaseDirectory(), leaseCoordinator)
                : ExecutorChiplets.whole(machine.host(), "executor mode leases its own chiplet");
        hostShare = share;
        return share;
    }

    /** The measurement's settings, with the seed the driver drew for this application where none is set. */
    private static MeasureSettings measureSettings(Map<String, String> conf, Map<String, String> extraConf)
    {
        MeasureKeys.Parsed parsed = MeasureKeys.parse(conf);
        if (parsed instanceof MeasureKeys.Invalid invalid) {
            throw new IllegalArgumentException(invalid.problem().message());
        }
        MeasureSettings settings = ((MeasureKeys.Valid) parsed).settings();
        String drawn = extraConf.get(ChipletDriverPlugin.MEASURE_SEED);
        return drawn == null ? settings : settings.withSeed(Long.parseLong(drawn));
    }

    /** Executor mode, measured: the driver draws whether this whole executor is placed, before it leases or binds anything. */
    private static Optional<DrawnArm> drawExecutorArm(String executorId, PlacementMode mode, MeasureSettings settings, DriverLink driverLink)
    {
        return mode == PlacementMode.EXECUTOR && settings.enabled()
                ? ExecutorMeasuring.askExecutorArm(executorId, driverLink::ask)
                : Optional.empty();
    }

    /**
     * In task mode, a control share of tasks runs unplaced and the driver learns each task's arm (docs/measuring.md).
     * In executor mode every task has its executor's arm, drawn by the driver; an executor the driver drew no arm
     * for is placed and not measured.
     */
    private void measure(PluginContext context, PlacementMode mode, MeasureSettings settings, Optional<DrawnArm> executorArm, boolean oneL3, DriverLink driverLink)
    {
        if (!settings.enabled() || (mode == PlacementMode.EXECUTOR && executorArm.isEmpty())) {
            return;
        }
        ExecutorMeasuring started = new ExecutorMeasuring(settings, context.executorID(), driverLink::ask, HostKey.live(), oneL3);
        measuring = started;
        placement = executorArm.isPresent() ? started.wrapWhole(placement, executorArm.get()) : started.wrap(placement);
    }

    /** Executor mode counts only its leased chiplet; nothing else holds the context's metrics there. */
    private PlacementMetrics registerMetrics(PluginContext context, PlacementDomain usable, List<Integer> placedOn, PlacementMetrics contextMetrics)
    {
        PlacementMetrics placementMetrics = placedOn.equals(usable.ids()) ? contextMetrics : new PlacementMetrics(placedOn);
        placementMetrics.register(context.metricRegistry());
        metrics = placementMetrics;
        return placementMetrics;
    }

    /** The one line per executor that default log levels show (spark-shell and pyspark shells log at WARN). */
    private void logStart(String executorId, PlacementSettings settings, ExecutorMachine machine, ExecutorChiplets share, PlacementDomain usable, List<Integer> placedOn, boolean control)
    {
        int taskSlots = machine.taskSlots();
        int cores = machine.cores();
        log.warn("Chiplet plugin on executor {}: {} mode{}, {} task slot{} for {} core{} on chiplets {} (CPUs {}) of {}; {}; policy {}; native path {}",
                executorId, machine.mode().configName(), settings.mode() == PlacementMode.AUTO ? " (auto)" : "", taskSlots, taskSlots == 1 ? "" : "s",
                cores, cores == 1 ? "" : "s", placedOn, cpusOf(usable, placedOn), share.topology().source(),
                control ? "control executor: nothing leased or bound, its tasks run as without the plugin (docs/measuring.md)" : describe(placement, share),
                settings.policy(), NativeAccess.path());
    }

    /** Task mode places Python workers as well: on the CPUs of the task that starts them. */
    private void installPythonWorkers(PluginContext context, Map<String, String> extraConf, PlacementMode mode)
    {
        if (mode == PlacementMode.TASK) {
            python = PythonWorkerPlacement.install(context.conf(), System.getProperty("sun.java.command", ""), Path.of("").toAbsolutePath(),
                    Optional.ofNullable(extraConf.get(ChipletDriverPlugin.ISOLATED_PYTHON_SESSIONS)));
        }
    }

    /** The host's picture, for the Chiplet tab and chiplet report (docs/observability.md): a few kilobytes, once per executor. */
    private void reportMachine(PluginContext context, DriverLink driverLink, ExecutorMachine machine, ExecutorChiplets share, PartitionBasis summary, String placedCpus)
    {
        // Its own chiplets: a share of the host (task mode) or a leased chiplet (executor mode); none under wim or as a control executor.
        boolean ownChiplets = !share.ownsHost() || placement.holdsOwnChiplets();
        driverLink.report(new TopologyReport(context.executorID(), ExecutorHost.of(context), machine.mode(), summary, ownChiplets, MachinePicture.of(machine.host()).json(),
                placedCpus));
    }

    /** What the executor got: its share of the host in task mode, its lease in executor mode. */
    private static String describe(TaskPlacement placement, ExecutorChiplets share)
    {
        TaskPlacement inner = placement instanceof MeasuredTaskPlacement measured ? measured.placement() : placement;
        if (inner instanceof ExecutorProcessPlacement process) {
            return process.lease().map(lease -> "process bound to leased " + lease.describe()).orElse("process not bound (policy wim)");
        }
        return share.description();
    }

    private static String cpusOf(PlacementDomain usable, List<Integer> chiplets)
    {
        return chiplets.stream().map(usable::cpusOf).reduce(CpuSet.empty(), CpuSet::union).toList();
    }

    @Override
    public void onTaskStart()
    {
        guard.run("onTaskStart", () -> {
            TaskPlacement.TaskIdentity task = currentTask.get();
            TaskPlacement.Handle handle = placement.onTaskStart(task);
            running.set(handle);
            // Spark unsets the task's context before the end hooks run; its metrics are read there through this one.
            runningContext.set(TaskContext.get());
            runningSince.set(new Started(task, System.nanoTime()));
            metrics.taskStarted(handle.chiplet());
            python.onTaskStart(handle.cpus());
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
        TaskContext context = runningContext.get();
        runningContext.remove();
        Started started = runningSince.get();
        runningSince.remove();
        // Even when switched off since the start: the thread is reused and must not stay placed.
        guard.runAlways(entryPoint, () -> {
            placement.onTaskEnd(handle);
            TaskPlaceLog places = taskPlaces;
            if (places != null && started != null) {
                TaskPlacement.TaskIdentity task = started.task();
                places.ended(task.stageId(), task.taskAttemptId(), task.partitionId(), handle.chiplet().orElse(TaskPlaces.NO_CHIPLET), handle.cpus(), handle.arm(),
                        (System.nanoTime() - started.nanos()) / 1_000_000, failed);
            }
            if (failed) {
                metrics.taskFailed();
            }
            else if (context != null) {
                TaskMetrics read = context.taskMetrics();
                placement.taskRead(handle, Math.max(0, read.shuffleReadMetrics().totalBytesRead()), Math.max(0, read.inputMetrics().bytesRead()));
            }
        });
    }

    /** The driver's latest spread hints: from the report's reply, then from the adaptive controller's asks. */
    SpreadHints hints()
    {
        DriverLink link = driver;
        return link == null ? SpreadHints.NONE : link.hints();
    }

    /**
     * The summary line comes first, before anything that can wait (the counts' RPC, closing the measurement and the
     * binding): Spark calls this late in its executor's stop, and a Worker or NodeManager that kills the executor
     * meanwhile (the application is over) ends the JVM, and with it Spark's logging, part-way through; a summary
     * logged last was cut off or lost (issue #34).
     */
    @Override
    public void shutdown()
    {
        // The lines first, before anything that talks to the driver: the Worker may stop copying this output soon.
        ExecutorMeasuring measured = measuring;
        if (measured != null) {
            guard.runAlways("executor shutdown", measured::logOwnCpu);
        }
        PlacementMetrics placementMetrics = metrics;
        if (guard.active() && placementMetrics != null) {
            log.info("{}", placementMetrics.summaryLine());
        }
        PlacementCountsSender sender = counts;
        if (sender != null) {
            sender.stopAndSendLast();
        }
        CpusetFollower follower = cpuset;
        if (follower != null) {
            follower.stop();
        }
        if (measured != null) {
            guard.runAlways("executor shutdown", measured::close);
        }
        guard.runAlways("executor shutdown", placement::close);
        ExecutorChiplets share = hostShare;
        if (share != null) {
            guard.runAlways("executor shutdown", share::close);
        }
    }
}
