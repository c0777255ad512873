package io.chiplet.spark.measure;

import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.measure.WindowSteps;
import io.chiplet.spark.placement.TaskPlacement.TaskIdentity;

import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * How a task's arm is drawn at its start and reported at its end: per host and window of time (the default), per task
 * of a stage (opt-in), or the executor's own (executor mode). Every decision is core's.
 */
interface TaskArmDraw
{
    /** At the task's start: its arm, with its window where there is one. */
    SwitchbackSchedule.Start start(TaskIdentity task);

    /** At its end: the arm to report, with core's verdict on a task that spanned a switch. */
    TaskArm end(SwitchbackSchedule.Start start);

    /** Task-level arms: core's seeded draw for the task's stage and partition under the latest directive. */
    static TaskArmDraw perTask(ArmAssignment assignment, Supplier<Directive> directive)
    {
        requireNonNull(assignment, "assignment is null");
        requireNonNull(directive, "directive is null");
        return fixed(task -> directive.get().draw(assignment, task.stageId(), Math.max(0, task.partitionId())));
    }

    /** Every task has {@code arm} (an executor-mode executor's). */
    static TaskArmDraw whole(DrawnArm arm)
    {
        requireNonNull(arm, "arm is null");
        return fixed(task -> arm);
    }

    private static TaskArmDraw fixed(java.util.function.Function<TaskIdentity, DrawnArm> draw)
    {
        return new TaskArmDraw()
        {
            @Override
            public SwitchbackSchedule.Start start(TaskIdentity task)
            {
                return new SwitchbackSchedule.Start(TaskArm.NO_WINDOW, draw.apply(task), false);
            }

            @Override
            public TaskArm end(SwitchbackSchedule.Start start)
            {
                return TaskArm.of(start.arm());
            }
        };
    }

    /**
     * Switchback windows per host: the arm of the host's window at the task's start (core's {@link SwitchbackSchedule});
     * at its end, left out where it started in a washout or spanned a switch.
     *
     * @param host the host's stratum ({@link SwitchbackSchedule#hostStratum} of its key)
     * @param directive the directive in force in each window ({@link io.chiplet.measure.WindowedDirective})
     * @param steps the window lengths in force, as the driver last sent them
     * @param clock epoch milliseconds
     */
    static TaskArmDraw windows(SwitchbackSchedule schedule, long host, LongFunction<Directive> directive, Supplier<WindowSteps> steps, LongSupplier clock)
    {
        requireNonNull(steps, "steps is null");
        requireNonNull(schedule, "schedule is null");
        requireNonNull(directive, "directive is null");
        requireNonNull(clock, "clock is null");
        return new TaskArmDraw()
        {
            @Override
            public SwitchbackSchedule.Start start(TaskIdentity task)
            {
                return schedule.start(host, clock.getAsLong(), directive, steps.get());
            }

            @Override
            public TaskArm end(SwitchbackSchedule.Start start)
            {
                return new TaskArm(start.arm(), start.window(), schedule.exclusion(host, start, clock.getAsLong(), directive, steps.get()));
            }
        };
    }
}
