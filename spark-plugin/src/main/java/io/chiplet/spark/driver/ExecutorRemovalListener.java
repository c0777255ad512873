package io.chiplet.spark.driver;

import io.chiplet.spark.guard.FailOpenGuard;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;

import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/** Tells the driver plugin of every executor Spark removes (lost, killed, or released by dynamic allocation). */
final class ExecutorRemovalListener
        extends SparkListener
{
    private final Consumer<String> removed;
    private final FailOpenGuard guard;

    ExecutorRemovalListener(Consumer<String> removed, FailOpenGuard guard)
    {
        this.removed = requireNonNull(removed, "removed is null");
        this.guard = requireNonNull(guard, "guard is null");
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved event)
    {
        guard.run("executor removal", () -> removed.accept(event.executorId()));
    }
}
