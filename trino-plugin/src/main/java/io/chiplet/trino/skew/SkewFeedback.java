package io.chiplet.trino.skew;

import io.chiplet.placement.SkewHint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Turns the skew measured on a source's recent queries into the hint its next query gets. Spread wins if any of the
 * source's last {@code windowQueries} queries had a skewed stage: the hint must outlive the one query it helped, or
 * the next query would fall back to the defaults, skew again, and the hint would flap. Consolidate needs every
 * measured stage of the source's latest query to have been spread too thin.
 */
public final class SkewFeedback
{
    private SkewFeedback() {}

    /**
     * @param recent stages as {@link SkewHistory#recent()} returns them, oldest first
     * @return {@link SkewHint#NONE} for a query without a source: unrelated clients would share one hint
     */
    public static SkewHint hintFor(String source, List<CompletedStageSkew> recent, int windowQueries)
    {
        requireNonNull(source, "source is null");
        requireNonNull(recent, "recent is null");
        if (windowQueries < 1) {
            throw new IllegalArgumentException("windowQueries must be positive: " + windowQueries);
        }
        if (source.isEmpty()) {
            return SkewHint.NONE;
        }
        // Newest query first; each query's stages together.
        Map<String, List<SkewHint>> queries = new LinkedHashMap<>();
        for (int i = recent.size() - 1; i >= 0; i--) {
            CompletedStageSkew stage = recent.get(i);
            if (!stage.source().equals(source)) {
                continue;
            }
            if (!queries.containsKey(stage.queryId()) && queries.size() == windowQueries) {
                break;
            }
            queries.computeIfAbsent(stage.queryId(), id -> new ArrayList<>()).add(SkewHint.fromConfigName(stage.hint()));
        }
        if (queries.isEmpty()) {
            return SkewHint.NONE;
        }
        if (queries.values().stream().anyMatch(hints -> hints.contains(SkewHint.SPREAD))) {
            return SkewHint.SPREAD;
        }
        List<SkewHint> latest = queries.values().iterator().next();
        return latest.stream().allMatch(SkewHint.CONSOLIDATE::equals) ? SkewHint.CONSOLIDATE : SkewHint.NONE;
    }

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
