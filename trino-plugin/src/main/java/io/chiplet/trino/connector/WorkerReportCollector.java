package io.chiplet.trino.connector;

import io.chiplet.trino.cluster.WorkerReport;
import io.chiplet.trino.cluster.WorkerReports;
import io.chiplet.trino.guard.CoordinatorParts;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * On the coordinator: asks every node that runs tasks for its report (the {@code usable_chiplets} and
 * {@code usable_cores} of its {@code status} row, which each node answers for itself) whenever the set of such nodes
 * changes, and every {@link #REFRESH} otherwise, and hands the reports to the plugin's {@link WorkerReports}. The
 * coordinator's own machine is asked only where it runs tasks itself. A failure to ask costs one warning; the session
 * defaults then keep what they had (Trino's own where nothing was reported).
 */
final class WorkerReportCollector
        implements AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(WorkerReportCollector.class);

    static final Duration CHECK_EVERY = Duration.ofSeconds(5);
    static final Duration REFRESH = Duration.ofMinutes(5);

    /** Runs a statement on this coordinator and returns its rows as text. */
    @FunctionalInterface
    interface Statements
    {
        List<List<String>> rows(String sql)
                throws IOException, InterruptedException;
    }

    private final String catalog;
    private final NodeManager nodeManager;
    private final Statements statements;
    private final WorkerReports reports;
    private final CoordinatorParts parts;
    private final Clock clock;
    private final FailOpenSwitch failOpen;
    private Set<String> answered = Set.of();
    private Instant askedAt = Instant.EPOCH;
    private ScheduledExecutorService executor;

    WorkerReportCollector(String catalog, NodeManager nodeManager, Statements statements, WorkerReports reports, CoordinatorParts parts, Clock clock)
    {
        this.parts = requireNonNull(parts, "parts is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.nodeManager = requireNonNull(nodeManager, "nodeManager is null");
        this.statements = requireNonNull(statements, "statements is null");
        this.reports = requireNonNull(reports, "reports is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.failOpen = new FailOpenSwitch(log, "Chiplet worker reports", "session defaults keep what the workers last reported (Trino's own where none did)");
    }

    synchronized void start()
    {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chiplet-worker-reports");
            thread.setDaemon(true);
            return thread;
        });
        parts.report(CoordinatorParts.WORKER_REPORTS, CoordinatorParts.ACTIVE,
                "catalog %s asks the nodes that run tasks once the session defaults use their reports; none has answered yet".formatted(catalog));
        executor.scheduleWithFixedDelay(this::collectQuietly, CHECK_EVERY.toMillis(), CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        log.info("Chiplet catalog {} on the coordinator: collects the workers' topology reports for the session defaults", catalog);
    }

    private void collectQuietly()
    {
        try {
            collect();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            // One warning; later rounds keep trying, quietly, for a cluster that heals (a worker restarted, a port opened).
            String cause = "asking the workers through the coordinator's client protocol failed: " + e.getMessage();
            failOpen.disable(cause);
            parts.report(CoordinatorParts.WORKER_REPORTS, CoordinatorParts.OFF, cause + " (retried every " + CHECK_EVERY.toSeconds() + " s)");
            log.debug("Collecting the worker reports failed", e);
        }
    }

    /** One round: asks the nodes that run tasks when they changed or the last answer is old; returns whether it asked. */
    synchronized boolean collect()
            throws IOException, InterruptedException
    {
        if (!reports.wanted()) {
            // No session property manager of ours sizes from them: no internal queries in the operator's history.
            return false;
        }
        Map<String, String> hosts = new HashMap<>();
        for (Node node : nodeManager.getWorkerNodes()) {
            hosts.put(node.getNodeIdentifier(), node.getHost());
        }
        Instant now = clock.instant();
        if (hosts.isEmpty() || (hosts.keySet().equals(answered) && now.isBefore(askedAt.plus(REFRESH)))) {
            return false;
        }
        List<List<String>> rows = statements.rows("SELECT node, usable_chiplets, usable_cores FROM \"%s\".%s.%s"
                .formatted(catalog.replace("\"", "\"\""), RuntimeTable.SCHEMA, RuntimeTable.STATUS.tableName()));
        List<WorkerReport> collected = new ArrayList<>();
        for (List<String> row : rows) {
            String node = row.get(0);
            if (node != null && hosts.containsKey(node) && row.get(1) != null && row.get(2) != null) {
                collected.add(new WorkerReport(node, hosts.get(node), Integer.parseInt(row.get(1)), Integer.parseInt(row.get(2))));
            }
        }
        answered = rows.stream().map(row -> row.get(0)).filter(hosts::containsKey).collect(Collectors.toUnmodifiableSet());
        askedAt = now;
        reports.update(collected, now);
        parts.report(CoordinatorParts.WORKER_REPORTS, CoordinatorParts.ACTIVE, "catalog %s: %d of %d nodes that run tasks reported at %s"
                .formatted(catalog, collected.size(), hosts.size(), now));
        return true;
    }

    @Override
    public synchronized void close()
    {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
        reports.releaseCollection();
    }
}
