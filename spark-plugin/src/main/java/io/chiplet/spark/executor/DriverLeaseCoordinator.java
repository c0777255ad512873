package io.chiplet.spark.executor;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.spark.messages.PluginMessages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.SortedSet;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Core's {@link LeaseCoordinator} through the driver: the executor's lease goes to the driver's ledger as a plugin
 * message and the verdict comes back. A driver that cannot answer (another plugin version, an RPC failure) leaves the
 * file leases as the only coordination, as before the check existed, and the executor says so once.
 */
final class DriverLeaseCoordinator
        implements LeaseCoordinator
{
    private static final Logger log = LoggerFactory.getLogger(DriverLeaseCoordinator.class);

    private final String executorId;
    private final Function<Object, Object> askDriver;

    DriverLeaseCoordinator(String executorId, Function<Object, Object> askDriver)
    {
        this.executorId = requireNonNull(executorId, "executorId is null");
        this.askDriver = requireNonNull(askDriver, "askDriver is null");
    }

    @Override
    public LeaseVerdict claim(LeaseScope scope, SortedSet<Integer> chiplets)
    {
        Object reply;
        try {
            reply = PluginMessages.decode(askDriver.apply(PluginMessages.encode(new LeaseClaim(executorId, scope, chiplets))));
        }
        catch (RuntimeException e) {
            log.warn("Chiplet plugin on executor {}: the driver did not check its chiplet lease ({}); only the lease directory {} keeps executors of this host apart",
                    executorId, e.toString(), scope.path());
            return LeaseVerdict.SHARED_DIRECTORY;
        }
        if (reply instanceof LeaseVerdict verdict) {
            return verdict;
        }
        log.info("Chiplet plugin on executor {}: the driver does not check chiplet leases (another plugin version?); only the lease directory {} keeps executors of this host apart",
                executorId, scope.path());
        return LeaseVerdict.SHARED_DIRECTORY;
    }
}
