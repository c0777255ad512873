package io.chiplet.placement;

import io.chiplet.placement.HybridRouting.WorkKind;

import java.util.HashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The kind of work each stage of a job does, as its finished tasks showed ({@link HybridRouting#kindOf}), for
 * routing its later tasks on a hybrid part. A stage no task of which has finished counts as {@link WorkKind#COMPUTE}:
 * performance cores, where work of unknown kind loses least (the hybrid report, §2). The latest finished task
 * decides, so a stage whose tasks differ follows its recent ones. Not thread-safe: the owner asks and learns under
 * its own lock.
 * Bounded: past {@link #MAX_STAGES} stages it forgets them all and learns again, stages being short-lived.
 */
public final class StageWorkKinds
{
    public static final int MAX_STAGES = 1024;

    private final Map<Integer, WorkKind> kinds = new HashMap<>();

    public WorkKind of(int stage)
    {
        return kinds.getOrDefault(stage, WorkKind.COMPUTE);
    }

    public void finished(int stage, WorkKind kind)
    {
        requireNonNull(kind, "kind is null");
        if (kinds.put(stage, kind) == null && kinds.size() > MAX_STAGES) {
            kinds.clear();
        }
    }
}
