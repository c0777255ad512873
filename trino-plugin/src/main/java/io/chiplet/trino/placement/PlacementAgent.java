package io.chiplet.trino.placement;

import io.chiplet.adaptive.AdaptiveLoop;
import io.chiplet.adaptive.AdaptiveSpread;
import io.chiplet.measure.Arm;
import io.chiplet.trino.measure.WindowSchedule;
import io.chiplet.affinity.PinnableCpusTracker;
import io.chiplet.placement.Policy;
import io.chiplet.topology.CpuSet;
import io.chiplet.trino.placement.AgentSnapshot.PlacedThread;
import io.chiplet.trino.placement.AgentSnapshot.ThreadAdaptation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Keeps a JVM's query threads placed: each pass lists the native threads, picks the query threads
 * ({@link QueryThreads}), asks {@link ThreadPlacement} where they go, pins those whose mask differs, and forgets
 * threads that ended. A thread that stops being a query thread while alive gets its old mask back. Passes run on one
 * daemon thread at the rescan interval, under {@code adaptive} at the adaptive interval: each pass is one step of the
 * spread controller, whose threshold is per adaptive interval.
 *
 * <p>Fail open: the first failure that is not a thread ending under us logs one warning, gives every pinned thread its
 * mask back and stops the agent; Trino goes on as without it. {@link #close()} restores every pinned thread and
 * releases what the agent owns (the chiplet leases).
 *
 * <p>Under {@code adaptive}, every query thread has a remote-access signal (hardware counters where the machine has
 * them, the software fallback where not, see {@link io.chiplet.perf.RemoteAccessRate}) feeding core's
 * {@link AdaptiveLoop}, one worker per query thread, one interval per pass (the pass is the loop's scheduler): a thread
 * keeps its spread while it lives, a new one starts at 1, and no thread's history passes to another. After a cpuset
 * change every thread starts afresh.
 *
 * <p>Each pass first checks whether the process's allowed CPUs changed ({@link PinnableCpusTracker}: the kubelet
 * narrowing a container's cpuset after start, {@code taskset} of the whole process). On a change it logs the old and
 * new sets once, places anew on the node's chiplets within the new set ({@link ThreadPlacement#followingCpuset}) and
 * pins every query thread again, whatever mask it is recorded with: a cpuset change may have rewritten the masks
 * under us (kernels before 6.2 reset them).
 *
 * <p>Measuring in place (issue 23): once the coordinator published a {@link WindowSchedule} ({@link #follow}), each
 * pass asks it for the arm of the current window. In a control window every pinned thread gets its own mask back and
 * no thread is pinned, exactly as without the plugin; the next placed window places them all anew. A pass is also
 * run at every window's start, so the switch follows the schedule within one pass's time.
 */
public final class PlacementAgent
        implements AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(PlacementAgent.class);

    private final String name;
    private final ThreadPlacement initialPlacement;
    private final PinnableCpusTracker allowedCpus;
    private final QueryThreadBinder binder;
    private final AdaptiveLoop loop;
    private final List<AutoCloseable> owned;
    private final LongSupplier epochMillis;

    // Guarded by this.
    private Optional<WindowSchedule> schedule = Optional.empty();
    private long boundaryPassAt = Long.MIN_VALUE;
    private boolean warnedNotPlacing;
    private ThreadPlacement placement;
    private boolean repinAll;
    private final Map<Integer, Pin> pins = new HashMap<>();
    private List<Integer> placedThreads = List.of();
    private ScheduledExecutorService executor;
    private boolean stopped;
    private boolean closed;
    private boolean released;

    private volatile AgentSnapshot snapshot;

    /**
     * @param name names the agent in logs and its thread
     * @param binder lists and binds the JVM's query threads
     * @param signals opens each query thread's remote-access signal (used by {@code adaptive} only)
     * @param adaptiveInterval the interval of the remote-access threshold (used by {@code adaptive} only)
     * @param threshold signal events per adaptive interval above which a thread spreads
     * @param owned closed with the agent, after every thread is restored (the chiplet leases)
     */
    public PlacementAgent(String name, ThreadPlacement placement, QueryThreadBinder binder, RemoteAccessSignals signals, Duration adaptiveInterval, double threshold,
            List<AutoCloseable> owned)
    {
        this(name, placement, new PinnableCpusTracker(placement::allowed), binder, signals, adaptiveInterval, threshold, owned);
    }

    /**
     * @param allowedCpus tracks the CPUs the process may use ({@link PinnableCpusTracker#live()} on a server)
     */
    public PlacementAgent(String name, ThreadPlacement placement, PinnableCpusTracker allowedCpus, QueryThreadBinder binder, RemoteAccessSignals signals,
            Duration adaptiveInterval, double threshold, List<AutoCloseable> owned)
    {
        this(name, placement, allowedCpus, binder, signals, adaptiveInterval, threshold, owned, System::currentTimeMillis);
    }

    /**
     * @param epochMillis the clock the window schedule is read with
     */
    public PlacementAgent(String name, ThreadPlacement placement, PinnableCpusTracker allowedCpus, QueryThreadBinder binder, RemoteAccessSignals signals,
            Duration adaptiveInterval, double threshold, List<AutoCloseable> owned, LongSupplier epochMillis)
    {
        this.epochMillis = requireNonNull(epochMillis, "epochMillis is null");
        this.name = requireNonNull(name, "name is null");
        this.initialPlacement = requireNonNull(placement, "placement is null");
        this.placement = placement;
        this.allowedCpus = requireNonNull(allowedCpus, "allowedCpus is null");
        this.snapshot = new AgentSnapshot(List.of(), List.of(), Optional.empty(), placement.allowed(), 0);
        this.binder = requireNonNull(binder, "binder is null");
        requireNonNull(signals, "signals is null");
        requireNonNull(adaptiveInterval, "adaptiveInterval is null");
        // The pass pins the threads by the spreads the interval returns: nothing more to apply.
        this.loop = new AdaptiveLoop(new AdaptiveSpread(adaptiveInterval.toNanos(), threshold, signals::open), (round, step) -> {}, new AdaptiveLoop.Events()
        {
            @Override
            public void openFailed(String failure, boolean firstOfLoop)
            {
                // Without a signal a thread keeps spread 1: CHARM's start, and what the planner gives it.
                log.debug("No remote-access signal for {}", failure);
            }
        });
        this.owned = List.copyOf(owned);
    }

    /** Runs a pass now and then every {@code period} on a daemon thread. */
    public synchronized void start(Duration period)
    {
        requireNonNull(period, "period is null");
        if (executor != null || closed) {
            throw new IllegalStateException("agent " + name + " is already started or closed");
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-placement-" + name);
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::pass, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    public AgentSnapshot snapshot()
    {
        return snapshot;
    }

    public Policy policy()
    {
        return placement.policy();
    }

    /**
     * Follows the coordinator's switchback schedule from the next pass on, unless the one followed is as new. Returns
     * whether it was adopted.
     */
    public synchronized boolean follow(WindowSchedule next)
    {
        requireNonNull(next, "next is null");
        if (schedule.isPresent() && !next.supersedes(schedule.get())) {
            return false;
        }
        if (schedule.isEmpty()) {
            log.info("Chiplet placement on {}: follows the coordinator's measurement schedule (windows of {} ms, seed {})", name, next.windowMillis(), next.seed());
        }
        schedule = Optional.of(next);
        if (!next.latest().placing() && !warnedNotPlacing) {
            warnedNotPlacing = true;
            log.warn("Chiplet placement on {}: the coordinator's guard stopped placement (placed queries measurably slower); query threads run unplaced "
                    + "from window {} on", name, next.entries().getLast().fromWindow());
        }
        return true;
    }

    /** The schedule followed; empty before the coordinator published one (every window placed). */
    public synchronized Optional<WindowSchedule> schedule()
    {
        return schedule;
    }

    /** The arm of the current window: placed while no schedule is followed. */
    public synchronized Arm armNow()
    {
        return schedule.map(followed -> followed.armAt(epochMillis.getAsLong())).orElse(Arm.PLACED);
    }

    /** One pass; the daemon thread calls it, tests call it directly. Never throws. */
    public synchronized void pass()
    {
        if (stopped || closed) {
            return;
        }
        try {
            placeThreads();
        }
        catch (VirtualMachineError e) {
            throw e;
        }
        catch (Throwable e) {
            log.debug("Chiplet placement pass failed", e);
            stop("placing query threads failed: " + e);
        }
    }

    /** Places anew on the node's chiplets within the new allowed CPUs, and has every thread pinned again. */
    private void followCpuset(PinnableCpusTracker.Change change)
    {
        ThreadPlacement next = initialPlacement.followingCpuset(change.after());
        // The binder checks targets against the allowed CPUs: a share widened beyond those of the start needs the new ones.
        binder.follow(change.after());
        log.info("Chiplet placement on {}: {}; placing {} query threads anew on CPUs {}", name, change.describe(), pins.size(), next.allowed().toList());
        placement = next;
        placedThreads = List.of();
        loop.restart();
        repinAll = true;
    }

    private void placeThreads()
    {
        allowedCpus.check().ifPresent(this::followCpuset);
        passAtNextWindow();
        if (armNow() == Arm.CONTROL) {
            // A control window: every thread as without the plugin.
            if (!pins.isEmpty()) {
                String failure = restoreAll();
                if (!failure.isEmpty()) {
                    throw new IllegalStateException("restoring the query threads for a control window failed" + failure);
                }
            }
            snapshot = new AgentSnapshot(List.of(), List.of(), Optional.empty(), placement.allowed(), allowedCpus.changes());
            return;
        }
        List<NativeThread> threads = binder.threads();
        Map<Integer, String> query = threads.stream()
                .filter(NativeThread::isQueryThread)
                .collect(Collectors.toMap(NativeThread::tid, NativeThread::name, (first, second) -> first, LinkedHashMap::new));
        Set<Integer> alive = threads.stream().map(NativeThread::tid).collect(Collectors.toSet());
        // Ended threads need nothing; live ones that are no longer query threads get their mask back.
        for (int tid : List.copyOf(pins.keySet())) {
            if (!query.containsKey(tid)) {
                Pin pin = pins.remove(tid);
                if (alive.contains(tid)) {
                    pin.binding().restore();
                }
            }
        }
        List<Integer> tids = query.keySet().stream().sorted().toList();
        List<ThreadAssignment> targets;
        if (placement.policy().adaptsAtRunTime()) {
            targets = placement.placeAdaptive(tids, adapt(tids));
        }
        else if (tids.equals(placedThreads)) {
            // The steady state: the same threads as last pass, all placed; the plan would not change.
            targets = List.of();
        }
        else {
            Map<Integer, CpuSet> current = new HashMap<>();
            pins.forEach((tid, pin) -> current.put(tid, pin.cpus()));
            targets = placement.place(tids, current);
        }
        for (ThreadAssignment target : targets) {
            Pin pin = pins.get(target.tid());
            if (!repinAll && pin != null && pin.cpus().equals(target.cpus())) {
                continue;
            }
            Optional<QueryThreadBinder.Binding> binding = binder.bind(target.tid(), target.cpus());
            if (binding.isEmpty()) {
                // Ended since the listing: forget it.
                pins.remove(target.tid());
                continue;
            }
            // A moved thread keeps the binding of its first bind: its restore gives the mask it had before the agent.
            pins.put(target.tid(), new Pin(pin == null ? binding.get() : pin.binding(), target.chiplet(), target.cpus()));
        }
        repinAll = false;
        placedThreads = tids.stream().filter(pins::containsKey).toList();
        List<PlacedThread> placed = new ArrayList<>();
        for (int tid : tids) {
            Pin pin = pins.get(tid);
            if (pin != null) {
                placed.add(new PlacedThread(tid, query.get(tid), pin.chiplet(), pin.cpus()));
            }
        }
        snapshot = new AgentSnapshot(placed, adaptation(), Optional.empty(), placement.allowed(), allowedCpus.changes());
    }

    /** Has a pass run when the next window starts, so that the switch does not wait for the rescan interval. */
    private void passAtNextWindow()
    {
        if (schedule.isEmpty() || executor == null) {
            return;
        }
        long now = epochMillis.getAsLong();
        long next = schedule.get().nextWindowStart(now);
        if (next != boundaryPassAt) {
            boundaryPassAt = next;
            executor.schedule(this::pass, next - now, TimeUnit.MILLISECONDS);
        }
    }

    /** One step of the adaptive loop over the query threads: their spreads, in the order of {@code tids}. */
    private int[] adapt(List<Integer> tids)
    {
        List<AdaptiveSpread.Worker> workers = tids.stream().map(tid -> new AdaptiveSpread.Worker(tid, tid, true)).toList();
        return loop.interval(new AdaptiveLoop.Round(workers, placement.usableChiplets())).spreads();
    }

    private List<ThreadAdaptation> adaptation()
    {
        Optional<AdaptiveSpread.Step> lastStep = loop.lastStep();
        if (!placement.policy().adaptsAtRunTime() || lastStep.isEmpty()) {
            return List.of();
        }
        List<ThreadAdaptation> rows = new ArrayList<>();
        for (AdaptiveSpread.WorkerSpread worker : lastStep.get().workers()) {
            rows.add(new ThreadAdaptation(worker.tid(), worker.spread(),
                    worker.sample().map(sample -> sample.ratePer(loop.intervalNanos())),
                    worker.source().map(Enum::name).orElse("NONE")));
        }
        return rows;
    }

    /**
     * Stops placing with the one warning an operator sees, gives every thread its mask back and releases the leases:
     * a node that places nothing must not keep chiplets from the other JVMs of its host.
     */
    private void stop(String cause)
    {
        stopped = true;
        log.warn("Chiplet placement stopped on {}, Trino runs as without it: {}", name, cause);
        String restoreFailure = restoreAll();
        snapshot = new AgentSnapshot(List.of(), List.of(), Optional.of(cause + restoreFailure));
        if (executor != null) {
            executor.shutdown();
        }
        releaseOwned();
    }

    /** Releases what the agent owns (its leases), once: on a stop or on close, whichever comes first. */
    private void releaseOwned()
    {
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
        }
        for (AutoCloseable resource : owned) {
            try {
                resource.close();
            }
            catch (Exception e) {
                log.warn("Chiplet placement on {} could not release {}: {}", name, resource, e.toString());
            }
        }
    }

    private String restoreAll()
    {
        String failure = "";
        for (Pin pin : pins.values()) {
            try {
                pin.binding().restore();
            }
            catch (RuntimeException e) {
                failure = "; restoring a thread failed: " + e;
            }
        }
        pins.clear();
        placedThreads = List.of();
        loop.reset();
        return failure;
    }

    /** Restores every pinned thread, closes the signals and releases what the agent owns. */
    @Override
    public void close()
    {
        ScheduledExecutorService running;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            running = executor;
        }
        if (running != null) {
            running.shutdownNow();
            try {
                // A pass in progress holds the lock; let it finish before the restore.
                running.awaitTermination(10, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            String failure = restoreAll();
            if (!failure.isEmpty()) {
                log.warn("Chiplet placement on {} could not restore every thread{}", name, failure);
            }
            snapshot = new AgentSnapshot(List.of(), List.of(), Optional.of("closed"));
        }
        releaseOwned();
    }

    private record Pin(QueryThreadBinder.Binding binding, OptionalInt chiplet, CpuSet cpus) {}
}
