package io.chiplet.flink.settings;

import io.chiplet.placement.Policy;

/**
 * Test only: a settings translation of an adapter no rule names, naming a policy constant as its default, which the
 * rule allows there and only there ({@code io.chiplet.rules.InjectedViolationsTest}).
 */
public final class FlinkSettings
{
    private FlinkSettings() {}

    static Policy policy(String value)
    {
        return value.isBlank() ? Policy.AUTO : Policy.parse(value);
    }
}
