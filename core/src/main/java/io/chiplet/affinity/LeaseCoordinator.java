package io.chiplet.affinity;

import java.util.SortedSet;

/**
 * The application-wide check behind host-wide leases: a process tells its application's coordinator (Spark's driver)
 * what it leased where, and learns which chiplets processes of the application hold on its host in lease
 * directories it cannot see ({@link LeaseLedger}). An engine whose processes have no coordinator uses {@link #NONE}.
 */
@FunctionalInterface
public interface LeaseCoordinator
{
    /** No coordinator: the lease directory is trusted to be one per host. */
    LeaseCoordinator NONE = (scope, chiplets) -> LeaseVerdict.SHARED_DIRECTORY;

    /**
     * Records that this process holds {@code chiplets} in the lease directory of {@code scope}, replacing what it said
     * before. A coordinator that cannot be reached answers {@link LeaseVerdict#SHARED_DIRECTORY}: the file leases are
     * then all there is, as before there was a check.
     */
    LeaseVerdict claim(LeaseScope scope, SortedSet<Integer> chiplets);
}
