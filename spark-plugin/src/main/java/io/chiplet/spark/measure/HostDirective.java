package io.chiplet.spark.measure;

import io.chiplet.measure.Directive;
import io.chiplet.measure.WindowSteps;

import static java.util.Objects.requireNonNull;

/**
 * The driver's reply to an executor's {@link ArmReport} with switchback windows: the directive to place by, and the
 * window lengths in force (core's {@link WindowSteps}, grown by {@link io.chiplet.measure.WindowLength}'s rule from
 * a boundary the driver chose), so that every executor of a host cuts time the same way.
 */
public record HostDirective(Directive directive, WindowSteps steps)
{
    public HostDirective
    {
        requireNonNull(directive, "directive is null");
        requireNonNull(steps, "steps is null");
    }
}
