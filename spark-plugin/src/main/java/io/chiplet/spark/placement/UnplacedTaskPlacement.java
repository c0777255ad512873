package io.chiplet.spark.placement;

/**
 * Leaves every task where the OS schedules it: the placement where pinning is unavailable or not wanted.
 */
public final class UnplacedTaskPlacement
        implements TaskPlacement
{
    @Override
    public Handle onTaskStart(TaskIdentity task)
    {
        return Handle.UNPLACED;
    }

    @Override
    public void onTaskEnd(Handle handle) {}
}
