package io.chiplet.spark.measure;

import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.SwitchbackSchedule;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A task's arm as its executor reports it at the task's end.
 *
 * @param window the switchback window it started in (with its executor's host key, the cluster its arm was drawn
 *         for); {@link #NO_WINDOW} where the arm was drawn per task or per executor
 * @param exclusion why core's rule leaves it out (it started in a washout, or spanned a switch); empty when compared
 */
public record TaskArm(DrawnArm drawn, long window, Optional<SwitchbackSchedule.Exclusion> exclusion)
{
    public static final long NO_WINDOW = -1;

    public TaskArm
    {
        requireNonNull(drawn, "drawn is null");
        requireNonNull(exclusion, "exclusion is null");
        if (window < NO_WINDOW) {
            throw new IllegalArgumentException("expected a window of 0 or more, or none, got " + window);
        }
    }

    /** An arm drawn per task or per executor. */
    public static TaskArm of(DrawnArm drawn)
    {
        return new TaskArm(drawn, NO_WINDOW, Optional.empty());
    }
}
