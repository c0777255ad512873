package io.chiplet.spark.placement;

import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;

/** Places task {@code n} on chiplet {@code partitionId % chiplets} and records every call, with its thread. */
public final class RecordingTaskPlacement
        implements TaskPlacement
{
    public record Placed(TaskIdentity task, OptionalInt chiplet, Thread thread)
            implements Handle {}

    private final int chiplets;
    private final List<Placed> started = new CopyOnWriteArrayList<>();
    private final List<Handle> ended = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    public RecordingTaskPlacement(int chiplets)
    {
        this.chiplets = chiplets;
    }

    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
        Placed placed = new Placed(task, OptionalInt.of(task.partitionId() % chiplets), Thread.currentThread());
        started.add(placed);
        return placed;
    }

    @Override
    public void onTaskEnd(Handle handle)
    {
        ended.add(handle);
    }

    @Override
    public void close()
    {
        closed = true;
    }

    public List<Placed> started()
    {
        return List.copyOf(started);
    }

    public List<Handle> ended()
    {
        return List.copyOf(ended);
    }

    public boolean closed()
    {
        return closed;
    }
}
