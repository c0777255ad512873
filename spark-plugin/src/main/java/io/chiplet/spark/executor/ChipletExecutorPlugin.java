package io.chiplet.spark.executor;

import io.chiplet.affinity.AllowedCpusTracker;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.measure.Arm;
import io.chiplet.measure.DrawnArm;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.placement.HostShares;
import io.chiplet.placement.NodeShare;
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
import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.SpreadHintRequest;
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
import io.chiplet.spark.topology.HostShare;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    private static final long COUNTS_INTERVAL_SECONDS = 3;
    /** Unchanged counts are sent again only this often (a lost message is then made good): an idle executor sends nothing new. */
    private static final long UNCHANGED_COUNTS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);

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
    private volatile SpreadHints hints = SpreadHints.NONE;
    private volatile ScheduledExecutorService cpusetWatcher;

    /** How often the executor checks its allowed CPUs at first: a tenth of the kubelet's ten-second window. */
    static final long CPUSET_CHECK_INTERVAL_MS = 1000;
    /**
     * After this many checks (the first 30 s, when the kubelet narrows a container's cpuset) only every
     * {@value #LATER_CPUSET_CHECK_EVERY}th check reads the cpuset: a read costs some 1 to 1.5 ms of CPU on a small busy VM
     * (docs/measuring.md), and later changes
     * (an operator's taskset, a moved cgroup) are rare and may wait 5 s.
     */
    static final long EARLY_CPUSET_CHECKS = 30;
    static final long LATER_CPUSET_CHECK_EVERY = 5;

    private volatile HostShare hostShare;
    private volatile ScheduledExecutorService countsSender;
    private volatile PluginContext pluginContext;
    private volatile PythonWorkerPlacement python = PythonWorkerPlacement.off();
    private volatile ExecutorMeasuring measuring;
    // Only the counts' thread (and shutdown, after it stopped) touches these.
    private PlacementCounts lastCounts;
    private long lastCountsSentNanos;

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
        HostShare share = hostShare;
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

    private void start(PluginContext context, Map<String, String> extraConf)
    {
        if (extraConf.containsKey(ChipletDriverPlugin.DISABLED_BY_DRIVER)) {
            guard.disableQuietly("switched off by the driver: " + extraConf.get(ChipletDriverPlugin.DISABLED_BY_DRIVER));
            return;
        }
        // This machine's own snapshot root (CHIPLET_FS_ROOT from the Worker's environment) where the application sets none.
        SparkSettings.Parsed parsed = SparkSettings.parse(SparkSettings.withHostFsRoot(SparkConfs.toMap(context.conf()), System.getenv()));
        if (parsed instanceof SparkSettings.Problem problem) {
            guard.disable(problem.message());
            return;
        }
        PlacementSettings settings = ((SparkSettings.Valid) parsed).settings();
        if (!settings.enabled()) {
            guard.disableQuietly(SparkSettings.ENABLED + " is false");
            return;
        }
        // The snapshot is read on this host, which may not be the driver's: check it here.
        Optional<SparkSettings.Problem> snapshotProblem = SparkSettings.checkFsRoot(settings);
        if (snapshotProblem.isPresent()) {
            guard.disable(snapshotProblem.get().message());
            return;
        }
        Topology host = topologySource.read(settings);
        Map<String, String> conf = SparkConfs.toMap(context.conf());
        int cores = ExecutorSlots.cores(conf, host.allowed().size(), System.getProperty("sun.java.command", ""));
        int taskSlots = ExecutorSlots.of(conf, host.allowed().size(), System.getProperty("sun.java.command", ""));
        PlacementMode mode = resolveMode(settings.mode(), host, cores, context.executorID());
        PlacementSettings resolved = settings.withMode(mode);
        // Task mode places within this executor's share of the host; executor mode leases its chiplet itself.
        // Leases are checked with the driver: executors of one host whose containers see different lease directories are kept apart there.
        LeaseCoordinator leaseCoordinator = new DriverLeaseCoordinator(context.executorID(), message -> askDriver(context, message));
        HostShare share = mode == PlacementMode.TASK
                ? HostShare.claim(host, cores, context.executorID(), settings.leaseDirectory(), leaseCoordinator)
                : HostShare.whole(host, "executor mode leases its own chiplet");
        hostShare = share;
        Topology topology = share.topology();
        List<Integer> usable = NodeShare.of(topology).ids();
        PlacementMetrics contextMetrics = new PlacementMetrics(usable);
        MeasureSettings measureSettings = measureSettings(context, extraConf);
        // Executor mode, measured: the driver draws whether this whole executor is placed, before it leases or binds anything.
        Optional<DrawnArm> executorArm = mode == PlacementMode.EXECUTOR && measureSettings.enabled()
                ? ExecutorMeasuring.askExecutorArm(context.executorID(), message -> askDriver(context, message))
                : Optional.empty();
        boolean control = executorArm.isPresent() && executorArm.get().arm() == Arm.CONTROL;
        placement = control
                ? new UnplacedTaskPlacement()
                : placementFactory.create(new PlacementContext(resolved, topology, contextMetrics, taskSlots, context.executorID(), () -> askHints(context), leaseCoordinator));
        measure(context, mode, measureSettings, executorArm, NodeShare.of(host).ids().size() < 2);
        List<Integer> placedOn = placement.chipletIds(usable);
        // Executor mode counts only its leased chiplet; nothing else holds the context's metrics there.
        PlacementMetrics placementMetrics = placedOn.equals(usable) ? contextMetrics : new PlacementMetrics(placedOn);
        placementMetrics.register(context.metricRegistry());
        metrics = placementMetrics;
        PartitionBasis summary = placement.summary(topology);
        // The one line per executor that default log levels show (spark-shell and pyspark shells log at WARN).
        log.warn("Chiplet plugin on executor {}: {} mode{}, {} task slot{} for {} core{} on chiplets {} (CPUs {}) of {}; {}; policy {}; native path {}",
                context.executorID(), mode.configName(), settings.mode() == PlacementMode.AUTO ? " (auto)" : "", taskSlots, taskSlots == 1 ? "" : "s",
                cores, cores == 1 ? "" : "s", placedOn, cpusOf(topology, placedOn), topology.source(),
                control ? "control executor: nothing leased or bound, its tasks run as without the plugin (docs/measuring.md)" : describe(placement, share),
                settings.policy(), NativeAccess.path());
        if (mode == PlacementMode.TASK) {
            python = PythonWorkerPlacement.install(context.conf(), System.getProperty("sun.java.command", ""), Path.of("").toAbsolutePath(),
                    Optional.ofNullable(extraConf.get(ChipletDriverPlugin.ISOLATED_PYTHON_SESSIONS)));
        }
        // Its own chiplets: a share of the host (task mode) or a leased chiplet (executor mode); none under wim or as a control executor.
        boolean ownChiplets = !share.ownsHost() || placement.holdsOwnChiplets();
        // The host's picture, for the Chiplet tab and chiplet report (docs/observability.md): a few kilobytes, once per executor.
        report(context, new TopologyReport(context.executorID(), ExecutorHost.of(context), mode, summary, ownChiplets, MachinePicture.of(host).json(),
                control ? "" : cpusOf(topology, placedOn)));
        taskPlaces = new TaskPlaceLog(context.executorID());
        ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-placement-counts");
            thread.setDaemon(true);
            return thread;
        });
        sender.scheduleWithFixedDelay(() -> sendCounts(context, false), COUNTS_INTERVAL_SECONDS, COUNTS_INTERVAL_SECONDS, TimeUnit.SECONDS);
        countsSender = sender;
        pluginContext = context;
        followCpuset(context.executorID(), topology, placementMetrics);
    }

    /** The measurement's settings, with the seed the driver drew for this application where none is set. */
    private static MeasureSettings measureSettings(PluginContext context, Map<String, String> extraConf)
    {
        MeasureKeys.Parsed parsed = MeasureKeys.parse(SparkConfs.toMap(context.conf()));
        if (parsed instanceof MeasureKeys.Invalid invalid) {
            throw new IllegalArgumentException(invalid.problem().message());
        }
        MeasureSettings settings = ((MeasureKeys.Valid) parsed).settings();
        String drawn = extraConf.get(ChipletDriverPlugin.MEASURE_SEED);
        return drawn == null ? settings : settings.withSeed(Long.parseLong(drawn));
    }

    private static Object askDriver(PluginContext context, Object message)
    {
        try {
            return context.ask(message);
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * In task mode, a control share of tasks runs unplaced and the driver learns each task's arm (docs/measuring.md).
     * In executor mode every task has its executor's arm, drawn by the driver; an executor the driver drew no arm
     * for is placed and not measured.
     */
    private void measure(PluginContext context, PlacementMode mode, MeasureSettings settings, Optional<DrawnArm> executorArm, boolean oneL3)
    {
        if (!settings.enabled() || (mode == PlacementMode.EXECUTOR && executorArm.isEmpty())) {
            return;
        }
        ExecutorMeasuring started = new ExecutorMeasuring(settings, context.executorID(), message -> askDriver(context, message), HostKey.live(), oneL3);
        measuring = started;
        placement = executorArm.isPresent() ? started.wrapWhole(placement, executorArm.get()) : started.wrap(placement);
    }

    /**
     * Says whether the allowed CPUs are whole chiplets, then checks them every {@link #CPUSET_CHECK_INTERVAL_MS} ms on a
     * daemon thread for the first {@value #EARLY_CPUSET_CHECKS} checks (the kubelet may narrow a container's cpuset
     * seconds after start), every {@value #LATER_CPUSET_CHECK_EVERY} s after that. A change is logged once with the
     * old and new sets, counted ({@code cpuset.changes}) and handed to the placement to plan and pin anew.
     */
    private void followCpuset(String executorId, Topology topology, PlacementMetrics placementMetrics)
    {
        AllowedCpusTracker tracker = AllowedCpusTracker.live();
        log.info("Chiplet plugin on executor {}: {}", executorId, alignment(topology, tracker.current()));
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-cpuset-watch");
            thread.setDaemon(true);
            return thread;
        });
        cpusetWatcher = watcher;
        long[] checks = {0};
        watcher.scheduleWithFixedDelay(() -> guard.run("following the cpuset", () -> {
            if (++checks[0] > EARLY_CPUSET_CHECKS && checks[0] % LATER_CPUSET_CHECK_EVERY != 0) {
                return;
            }
            tracker.check().ifPresent(change -> {
            log.info("Chiplet plugin on executor {}: {}; placing tasks anew within {}", executorId, change.describe(), alignment(topology, change.after()));
            placementMetrics.cpusetChanged();
            placement.allowedCpusChanged(change.after());
            });
        }), CPUSET_CHECK_INTERVAL_MS, CPUSET_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /**
     * This executor's counts to the driver, whose metrics show them, where they changed (or {@code always}, and every
     * 30 s unchanged); a lost message only delays the figures.
     */
    private void sendCounts(PluginContext context, boolean always)
    {
        try {
            PlacementMetrics placementMetrics = metrics;
            if (placementMetrics != null) {
                PlacementCounts counts = PlacementCounts.of(context.executorID(), placementMetrics);
                long now = System.nanoTime();
                // Not a return: whatever else this round sends goes on regardless.
                if (always || !counts.equals(lastCounts) || now - lastCountsSentNanos >= UNCHANGED_COUNTS_INTERVAL_NANOS) {
                    lastCounts = counts;
                    lastCountsSentNanos = now;
                    context.send(PluginMessages.encode(counts));
                }
            }
            TaskPlaceLog places = taskPlaces;
            if (places != null) {
                TaskPlaces ended = places.drain();
                if (!ended.isEmpty()) {
                    context.send(PluginMessages.encode(ended));
                }
            }
        }
        catch (Exception | LinkageError e) {
            log.debug("Chiplet plugin could not send its counts to the driver", e);
        }
    }

    /** What the executor got: its share of the host in task mode, its lease in executor mode. */
    private static String describe(TaskPlacement placement, HostShare share)
    {
        TaskPlacement inner = placement instanceof MeasuredTaskPlacement measured ? measured.placement() : placement;
        if (inner instanceof ExecutorProcessPlacement process) {
            return process.lease().map(lease -> "process bound to leased " + lease.describe()).orElse("process not bound (policy wim)");
        }
        return share.description();
    }

    /**
     * {@code auto}: core decides ({@link HostShares#fitsOneChiplet}): an executor whose cores fit in one chiplet of a
     * shared host takes a chiplet for its whole process; one that owns its host, or anything between, places tasks
     * within its share. In local mode (executor {@code driver}) the process is the whole application: never bound whole.
     */
    static PlacementMode resolveMode(PlacementMode configured, Topology host, int cores, String executorId)
    {
        if (configured != PlacementMode.AUTO) {
            return configured;
        }
        if ("driver".equals(executorId)) {
            return PlacementMode.TASK;
        }
        return HostShares.fitsOneChiplet(NodeShare.of(host), cores) ? PlacementMode.EXECUTOR : PlacementMode.TASK;
    }

    private static String cpusOf(Topology topology, List<Integer> chiplets)
    {
        NodeShare share = NodeShare.of(topology);
        return chiplets.stream().map(share::cpusOf).reduce(CpuSet.empty(), CpuSet::union).toList();
    }

    /** Whether {@code allowed} are whole chiplets, as core's node share of them says; the reason where there is none. */
    private static String alignment(Topology topology, CpuSet allowed)
    {
        try {
            return NodeShare.of(topology, allowed).alignment().describe();
        }
        catch (IllegalArgumentException e) {
            return e.getMessage();
        }
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
        return hints;
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
        ScheduledExecutorService sender = countsSender;
        if (sender != null) {
            sender.shutdownNow();
            sendCounts(pluginContext, true);
        }
        ScheduledExecutorService watcher = cpusetWatcher;
        if (watcher != null) {
            watcher.shutdownNow();
        }
        if (measured != null) {
            guard.runAlways("executor shutdown", measured::close);
        }
        guard.runAlways("executor shutdown", placement::close);
        HostShare share = hostShare;
        if (share != null) {
            guard.runAlways("executor shutdown", share::close);
        }
    }
}
