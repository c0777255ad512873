package io.chiplet.spark.messages;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.spark.topology.HostShare;

import static java.util.Objects.requireNonNull;

/**
 * An executor's machine, sent once at executor start (as a {@link PluginMessages} string); the driver replies with
 * {@link SpreadHints}.
 *
 * @param host the executor's host: in {@link PlacementMode#TASK} mode executors on one host share its chiplets
 * @param mode the mode the executor places in ({@link PlacementMode#AUTO} resolved)
 * @param summary the chiplets it works on, as partition sizing counts them
 * @param sharesHost whether the executor took only its share of the host's chiplets ({@link HostShare}): the
 *         driver then counts its chiplets on their own, not once per host
 */
public record TopologyReport(String executorId, String host, PlacementMode mode, PartitionBasis summary, boolean sharesHost)
{
    public TopologyReport
    {
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(summary, "summary is null");
    }

    /** An executor owning its host (task mode) or its leased chiplet (executor mode). */
    public TopologyReport(String executorId, String host, PlacementMode mode, PartitionBasis summary)
    {
        this(executorId, host, mode, summary, false);
    }
}
