package io.chiplet.spark.executor;

import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.SpreadHintRequest;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.skew.SpreadHints;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;

import static java.util.Objects.requireNonNull;

/**
 * An executor's questions to the driver: its report of the machine, the lease check, and the adaptive controller's
 * spread hints; it keeps the driver's latest hints.
 */
final class DriverLink
{
    private final PluginContext context;
    private final Logger log;
    private volatile SpreadHints hints = SpreadHints.NONE;

    DriverLink(PluginContext context, Logger log)
    {
        this.context = requireNonNull(context, "context is null");
        this.log = requireNonNull(log, "log is null");
    }

    Object ask(Object message)
    {
        try {
            return context.ask(message);
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Leases are checked with the driver: executors of one host whose containers see different lease directories are kept apart there. */
    LeaseCoordinator leaseCoordinator()
    {
        return new DriverLeaseCoordinator(context.executorID(), this::ask);
    }

    /** The adaptive controller's periodic question; on its thread, never a task's. */
    SpreadHints askHints()
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

    /** The host's picture to the driver; its reply holds the first spread hints. */
    void report(TopologyReport report)
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

    /** The driver's latest spread hints: from the report's reply, then from the adaptive controller's asks. */
    SpreadHints hints()
    {
        return hints;
    }
}
