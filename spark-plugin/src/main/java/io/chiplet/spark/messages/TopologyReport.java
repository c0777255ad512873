package io.chiplet.spark.messages;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.spark.topology.ExecutorChiplets;

import static java.util.Objects.requireNonNull;

/**
 * An executor's machine, sent once at executor start (as a {@link PluginMessages} string); the driver replies with
 * {@link SpreadHints}.
 *
 * @param host the executor's host: executors working on its chiplets with none of their own share them
 * @param mode the mode the executor places in ({@link PlacementMode#AUTO} resolved)
 * @param summary the chiplets it works on, as partition sizing counts them
 * @param ownChiplets whether the executor holds chiplets of its own: a leased chiplet (executor mode) or its
 *         {@link ExecutorChiplets share} of the host (task mode). False for one owning its host (task mode) and for one that
 *         leased nothing (executor mode under {@code wim}, or a control executor when measuring): those count their
 *         host once ({@link PartitionBasis#ofCluster})
 * @param machine the host's chiplets and CPUs as core's {@code MachinePicture} JSON, what the Chiplet tab draws; empty
 *         where unknown
 * @param cpus the CPUs the executor places its tasks on (a cpulist); empty where unknown
 */
public record TopologyReport(String executorId, String host, PlacementMode mode, PartitionBasis summary, boolean ownChiplets, String machine, String cpus)
{
    public TopologyReport
    {
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(summary, "summary is null");
        requireNonNull(machine, "machine is null");
        requireNonNull(cpus, "cpus is null");
    }

    /** A report without the host's picture (what partition sizing needs). */
    public TopologyReport(String executorId, String host, PlacementMode mode, PartitionBasis summary, boolean ownChiplets)
    {
        this(executorId, host, mode, summary, ownChiplets, "", "");
    }

    /** Whether it took only its share of the host in task mode (the driver's {@code cluster.executors.sharingHost}). */
    public boolean sharesHost()
    {
        return mode == PlacementMode.TASK && ownChiplets;
    }

    /** This executor as core's partition sizing counts it. */
    public PartitionBasis.ExecutorBasis basis()
    {
        return new PartitionBasis.ExecutorBasis(host, ownChiplets, summary);
    }
}
