package io.chiplet.spark.executor;

import io.chiplet.affinity.PinnableCpusTracker;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.spark.guard.FailOpenGuard;
import io.chiplet.spark.placement.PlacementMetrics;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.slf4j.Logger;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Follows the executor's allowed CPUs: says whether they are whole chiplets, then checks them every
 * {@link #CPUSET_CHECK_INTERVAL_MS} ms on a daemon thread for the first {@value #EARLY_CPUSET_CHECKS} checks (the
 * kubelet may narrow a container's cpuset seconds after start), every {@value #LATER_CPUSET_CHECK_EVERY} s after that.
 * A change is logged once with the old and new sets, counted ({@code cpuset.changes}) and handed on to plan and pin anew.
 */
final class CpusetFollower
{
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

    private final ScheduledExecutorService watcher;

    private CpusetFollower(ScheduledExecutorService watcher)
    {
        this.watcher = watcher;
    }

    /**
     * @param onChange what to do with the new allowed CPUs (the placement plans and pins anew); on the watcher's thread
     */
    static CpusetFollower start(String executorId, Topology topology, PlacementMetrics placementMetrics, Consumer<CpuSet> onChange, FailOpenGuard guard, Logger log)
    {
        PinnableCpusTracker tracker = PinnableCpusTracker.live();
        log.info("Chiplet plugin on executor {}: {}", executorId, alignment(topology, tracker.current()));
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-cpuset-watch");
            thread.setDaemon(true);
            return thread;
        });
        long[] checks = {0};
        watcher.scheduleWithFixedDelay(() -> guard.run("following the cpuset", () -> {
            if (++checks[0] > EARLY_CPUSET_CHECKS && checks[0] % LATER_CPUSET_CHECK_EVERY != 0) {
                return;
            }
            tracker.check().ifPresent(change -> {
                log.info("Chiplet plugin on executor {}: {}; placing tasks anew within {}", executorId, change.describe(), alignment(topology, change.after()));
                placementMetrics.cpusetChanged();
                onChange.accept(change.after());
            });
        }), CPUSET_CHECK_INTERVAL_MS, CPUSET_CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
        return new CpusetFollower(watcher);
    }

    void stop()
    {
        watcher.shutdownNow();
    }

    /** Whether {@code allowed} are whole chiplets, as core's node share of them says; the reason where there is none. */
    private static String alignment(Topology topology, CpuSet allowed)
    {
        try {
            return PlacementDomain.of(topology, allowed).alignment().describe();
        }
        catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
