package io.chiplet.trino.session;

import io.chiplet.advice.Advice;
import io.chiplet.engine.Wording;
import io.chiplet.trino.cluster.WorkerReport;
import io.chiplet.trino.cluster.WorkerReports;
import org.slf4j.Logger;

import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The session defaults fitted to the workers' latest reports, refitted when they change, each change logged once
 * with what it was fitted to. Before any report {@code task_concurrency} stays Trino's.
 */
final class ReportedDefaults
        implements Supplier<SessionDefaultsPolicy>
{
    private final WorkerReports reports;
    private final Set<String> enabled;
    private final Logger log;
    private final Consumer<String> status;
    private WorkerReports.Snapshot fittedTo;
    private SessionDefaultsPolicy policy;

    /** @param status told what the defaults are fitted to, after every change */
    ReportedDefaults(WorkerReports reports, Set<String> enabled, Logger log, Consumer<String> status)
    {
        this.status = requireNonNull(status, "status is null");
        this.reports = requireNonNull(reports, "reports is null");
        this.enabled = Set.copyOf(enabled);
        this.log = requireNonNull(log, "log is null");
    }

    @Override
    public synchronized SessionDefaultsPolicy get()
    {
        WorkerReports.Snapshot current = reports.current();
        if (policy == null || !current.reports().equals(fittedTo.reports())) {
            policy = SessionDefaultsPolicy.forWorkers(current.reports(), enabled);
            fittedTo = current;
            if (current.isEmpty()) {
                status.accept("no worker has reported its topology yet: task_concurrency is Trino's own");
                log.info("Chiplet session defaults: no worker has reported its topology yet, so task_concurrency stays Trino's own "
                        + "(the coordinator's own machine is never used)");
            }
            else {
                status.accept("task_concurrency %d on the topology %s reported (%s)".formatted(policy.taskConcurrency().getAsInt(), current.describe(),
                        policy.taskConcurrencyReason()));
                log.info("Chiplet session defaults on the topology the workers reported ({}: {}): task_concurrency {} ({}); hash partition counts for {}",
                        current.describe(), current.reports().stream().map(ReportedDefaults::describe).collect(Collectors.joining(", ")),
                        policy.taskConcurrency().getAsInt(), policy.taskConcurrencyReason(), Wording.count(current.reports().size(), "worker"));
            }
        }
        return policy;
    }

    private static String describe(WorkerReport report)
    {
        return "%s on %s with %s and %s".formatted(report.node(), report.host(), Wording.count(report.chiplets(), "chiplet"), Wording.count(report.cores(), "core"));
    }
}
