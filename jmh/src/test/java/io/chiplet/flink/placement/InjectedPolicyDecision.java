package io.chiplet.flink.placement;

import io.chiplet.placement.Assignment;
import io.chiplet.placement.Policy;

/**
 * Test only, never part of a build's main classes: a class of an adapter no rule names (a Flink plugin that does not
 * exist) that decides what policies mean itself, by {@code ==} and by {@code switch}, and uses a planning step of core
 * outside its API for adapters, so that {@code io.chiplet.rules.InjectedViolationsTest} can show the rules catch a new
 * adapter without being told of it.
 */
public final class InjectedPolicyDecision
{
    private InjectedPolicyDecision() {}

    static boolean adapts(Policy policy)
    {
        return policy == Policy.ADAPTIVE;
    }

    static String unit(Policy policy)
    {
        return switch (policy) {
            case WIC -> "core";
            case WIM -> "machine";
            default -> "chiplet";
        };
    }

    static int worker(Assignment assignment)
    {
        return assignment.worker();
    }
}
