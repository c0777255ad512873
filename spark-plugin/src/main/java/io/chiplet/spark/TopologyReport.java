package io.chiplet.spark;

import static java.util.Objects.requireNonNull;

/**
 * An executor's machine, sent once at executor start; the driver replies with {@link SpreadHints}.
 *
 * @param host the executor's host: in {@link PlacementMode#TASK} mode executors on one host share its chiplets
 */
public record TopologyReport(String executorId, String host, PlacementMode mode, ChipletSummary summary)
{
    public TopologyReport
    {
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(summary, "summary is null");
    }
}
