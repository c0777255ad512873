package io.chiplet.spark.placement;

import io.chiplet.placement.Assignment;
import io.chiplet.spark.driver.ChipletDriverPlugin;
import io.chiplet.trino.guard.FailOpenSwitch;

/**
 * Test only, never part of a build's main classes: a class in the Spark plugin's placement package that breaks the
 * package rules three ways (a planning internal of core, the plugin's driver package, the other plugin), so that
 * {@code io.chiplet.rules.InjectedViolationsTest} can show the rules fail on it.
 */
public final class InjectedViolation
{
    private InjectedViolation() {}

    static int worker(Assignment assignment)
    {
        return assignment.worker();
    }

    static String names(ChipletDriverPlugin driver, FailOpenSwitch trinoSwitch)
    {
        return driver + " " + trinoSwitch;
    }
}
