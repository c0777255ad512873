package io.chiplet.spark.placement;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.OptionalInt;

/**
 * Where an executor's tasks run. Called on the task's own thread: {@link #onTaskStart} before the task's code,
 * {@link #onTaskEnd} after it, with the handle the start returned (executor threads are reused, so whatever the
 * start changed on the thread the end must undo). Implementations must be thread-safe and cheap: both calls
 * together run on every task.
 */
public interface TaskPlacement
        extends AutoCloseable
{
    Handle onTaskStart(TaskIdentity task);

    void onTaskEnd(Handle handle);

    /**
     * The chiplets this executor works on, as the driver should count them when it sizes partitions: all the
     * usable ones of the machine, unless the placement confines the executor to fewer.
     */
    default PartitionBasis summary(Topology topology)
    {
        return PartitionBasis.of(topology, topology.allowed());
    }

    /**
     * Whether this placement holds chiplets of its own for the executor (a leased chiplet), which the driver counts
     * on their own rather than once per host. Placements within the executor's share of the host hold none themselves.
     */
    default boolean holdsOwnChiplets()
    {
        return false;
    }

    /**
     * The process's allowed CPUs changed (the kubelet narrowed the container's cpuset, a {@code taskset} of the whole
     * process): plan anew within {@code nowAllowed} and move running tasks' threads there. Called on the executor's
     * cpuset watcher thread, never a task's. Placements that pin nothing have nothing to do.
     */
    default void allowedCpusChanged(CpuSet nowAllowed) {}

    /** Of the executor's usable chiplets, those this placement places tasks on (what its metrics count). */
    default java.util.List<Integer> chipletIds(java.util.List<Integer> usable)
    {
        return usable;
    }

    /**
     * What a task that succeeded read, after {@link #onTaskEnd}: shuffle bytes and source (input) bytes. Placements
     * that route by the kind of work learn from it; others ignore it.
     */
    default void taskRead(Handle handle, long exchangeBytesRead, long sourceBytesRead) {}

    /** Releases what the placement holds for the executor's lifetime (leases, controller threads). */
    @Override
    default void close() {}

    record TaskIdentity(int stageId, int partitionId, long taskAttemptId) {}

    /** What one task's start did; an implementation keeps its restore state in its own handle type. */
    interface Handle
    {
        Handle UNPLACED = OptionalInt::empty;

        /** The chiplet the task was placed on, empty when it runs wherever the OS puts it. */
        OptionalInt chiplet();

        /** The CPUs the task's thread was bound to; empty when it was not bound on its own. */
        default java.util.Optional<io.chiplet.topology.CpuSet> cpus()
        {
            return java.util.Optional.empty();
        }

        /** The task's arm where the run is measured ({@code placed} or {@code control}, docs/measuring.md); empty otherwise. */
        default String arm()
        {
            return "";
        }
    }
}
