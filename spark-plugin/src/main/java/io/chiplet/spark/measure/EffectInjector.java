package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import org.apache.spark.TaskContext;

/**
 * Test only: slows one arm's tasks so that placed tasks take {@code timeRatio} of a control task's time (above 1
 * placed tasks are slowed, below 1 control tasks by its inverse). The task sleeps, at its completion (inside the run
 * time Spark measures), for the slowed factor's excess over what it ran. Active only through
 * {@code MeasureSettings#activeInjection}, which needs a test system property; never in normal use.
 */
@FunctionalInterface
interface EffectInjector
{
    EffectInjector NONE = arm -> {};

    void taskStarted(Arm arm);

    static EffectInjector sparkTasks(double timeRatio)
    {
        Arm slowed = timeRatio >= 1 ? Arm.PLACED : Arm.CONTROL;
        double factor = timeRatio >= 1 ? timeRatio : 1 / timeRatio;
        return arm -> {
            TaskContext task = TaskContext.get();
            if (arm != slowed || task == null) {
                return;
            }
            long started = System.nanoTime();
            task.addTaskCompletionListener(ignored -> {
                long extraNanos = (long) ((factor - 1) * (System.nanoTime() - started));
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
