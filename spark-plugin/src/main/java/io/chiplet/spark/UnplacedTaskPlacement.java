package io.chiplet.spark;

/**
 * Leaves every task where the OS schedules it. The placement when pinning is unavailable or not wanted, and,
 * until the native layer is wired in, the only one.
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
