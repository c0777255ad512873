package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.EffectInjector;
import org.apache.spark.TaskContext;

/**
 * Test only: core's {@link EffectInjector} made on Spark's tasks. A task of the slowed arm sleeps, at its completion
 * (inside the run time Spark measures), for the stretch's excess over what it ran. Made only from
 * {@code MeasureSettings#activeInjector}, which needs a test system property; never in normal use.
 */
@FunctionalInterface
interface InjectedTaskDelay
{
    InjectedTaskDelay NONE = arm -> {};

    void taskStarted(Arm arm);

    static InjectedTaskDelay of(EffectInjector injector)
    {
        return arm -> {
            TaskContext task = TaskContext.get();
            if (arm != injector.slowedArm() || task == null) {
                return;
            }
            long started = System.nanoTime();
            task.addTaskCompletionListener(ignored -> {
                long extraNanos = injector.extraNanos(arm, System.nanoTime() - started);
                try {
                    Thread.sleep(extraNanos / 1_000_000, (int) (extraNanos % 1_000_000));
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        };
    }
}
