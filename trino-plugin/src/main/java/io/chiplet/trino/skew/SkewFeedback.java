package io.chiplet.trino.skew;

import java.util.List;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * What the stages of recent queries say about the cluster. The hint a later query gets is {@link SkewEvidenceLog}'s,
 * on core's {@code SkewEvidence}.
 */
public final class SkewFeedback
{
    private SkewFeedback() {}

    /**
     * The most tasks any recent stage ran. In pipelined execution Trino runs at most one task of a stage per node, and
     * a source stage on every node that holds splits, so this is how many nodes take part in queries (workers, and the
     * coordinator when it schedules work on itself). Fault-tolerant execution ({@code retry-policy=TASK}) runs more
     * tasks than nodes; there the worker count must be configured. Empty before any multi-task stage completed.
     */
    public static OptionalInt observedTaskNodes(List<CompletedStageSkew> recent)
    {
        requireNonNull(recent, "recent is null");
        return recent.stream().mapToInt(CompletedStageSkew::tasks).max();
    }
}
