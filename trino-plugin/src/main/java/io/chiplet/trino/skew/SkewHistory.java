package io.chiplet.trino.skew;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The skew the coordinator's event listener measured on recent queries, newest last. One instance per plugin: the
 * event listener writes it, the {@code chiplet.runtime.skew} table and the session defaults read it. Bounded, so a
 * long-running coordinator keeps only the latest stages.
 */
public final class SkewHistory
{
    private final int capacity;
    private final Deque<CompletedStageSkew> stages = new ArrayDeque<>();

    public SkewHistory(int capacity)
    {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
    }

    public synchronized void record(List<CompletedStageSkew> completed)
    {
        for (CompletedStageSkew stage : completed) {
            if (stages.size() == capacity) {
                stages.removeFirst();
            }
            stages.addLast(stage);
        }
    }

    public synchronized List<CompletedStageSkew> recent()
    {
        return List.copyOf(stages);
    }
}
