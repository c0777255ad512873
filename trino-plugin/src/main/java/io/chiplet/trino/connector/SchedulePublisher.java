package io.chiplet.trino.connector;

import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.measure.QueryMeasurements;
import io.chiplet.trino.measure.WindowSchedule;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * On the coordinator: brings the measurement schedule to every node that runs tasks, and hears which schedule each
 * follows. Trino's SPI has no channel from the coordinator to a worker's connector but a split, so the coordinator's
 * catalog queries its own {@code runtime.windows} table through the client protocol (as {@link WorkerReportCollector}
 * does for the reports): every per-node split carries the schedule, the node follows it before answering, and the
 * rows say which version each node now follows and its plugin threads' CPU time. It runs at once when the schedule
 * changes (a new control share, the guard's stop) and every {@link #REFRESH} otherwise, so that a worker that
 * (re)started picks it up. A failure costs one warning; the coordinator then leaves out the windows no answer
 * confirmed.
 */
final class SchedulePublisher
        implements AutoCloseable
{
    static final String SOURCE = "chiplet-measure";
    static final Duration REFRESH = Duration.ofSeconds(15);

    private static final Logger log = LoggerFactory.getLogger(SchedulePublisher.class);

    private final String catalog;
    private final NodeManager nodeManager;
    private final WorkerReportCollector.Statements statements;
    private final QueryMeasurements measurements;
    private final FailOpenSwitch failOpen;
    private ScheduledExecutorService executor;

    SchedulePublisher(String catalog, NodeManager nodeManager, WorkerReportCollector.Statements statements, QueryMeasurements measurements)
    {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.nodeManager = requireNonNull(nodeManager, "nodeManager is null");
        this.statements = requireNonNull(statements, "statements is null");
        this.measurements = requireNonNull(measurements, "measurements is null");
        this.failOpen = new FailOpenSwitch(log, "Chiplet measurement schedule", "windows no worker confirmed are left out of the measurement");
    }

    synchronized void start(Duration window)
    {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-measure-schedule");
            thread.setDaemon(true);
            return thread;
        });
        long every = Math.min(REFRESH.toMillis(), Math.max(1000, window.toMillis()));
        executor.scheduleWithFixedDelay(this::publishQuietly, 0, every, TimeUnit.MILLISECONDS);
    }

    /** Publishes soon, on the publisher's thread; never blocks. */
    synchronized void publishSoon()
    {
        if (executor != null) {
            executor.execute(this::publishQuietly);
        }
    }

    private void publishQuietly()
    {
        try {
            publish();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            failOpen.disable("publishing through the coordinator's client protocol failed: " + e.getMessage());
            log.debug("Publishing the measurement schedule failed", e);
        }
    }

    /** One round: returns whether every node that runs tasks follows the schedule as of the round's start. */
    boolean publish()
            throws Exception
    {
        Optional<WindowSchedule> schedule = measurements.schedule();
        if (schedule.isEmpty()) {
            return false;
        }
        Set<String> workers = nodeManager.getWorkerNodes().stream().map(Node::getNodeIdentifier).collect(Collectors.toUnmodifiableSet());
        List<List<String>> rows = statements.rows("SELECT node, schedule_epoch, schedule_version, plugin_cpu_nanos FROM \"%s\".%s.%s"
                .formatted(catalog.replace("\"", "\"\""), RuntimeTable.SCHEMA, RuntimeTable.WINDOWS.tableName()));
        Map<String, Long> pluginCpu = new HashMap<>();
        Set<String> following = new java.util.HashSet<>();
        for (List<String> row : rows) {
            String node = row.get(0);
            if (row.get(3) != null) {
                pluginCpu.put(node, Long.parseLong(row.get(3)));
            }
            if (row.get(1) != null && row.get(2) != null && Long.parseLong(row.get(1)) == schedule.get().epoch()
                    && Long.parseLong(row.get(2)) >= schedule.get().version()) {
                following.add(node);
            }
        }
        boolean everyWorker = !workers.isEmpty() && following.containsAll(workers);
        measurements.confirmed(schedule.get().epoch(), schedule.get().version(), everyWorker, pluginCpu);
        return everyWorker;
    }

    @Override
    public synchronized void close()
    {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }
}
