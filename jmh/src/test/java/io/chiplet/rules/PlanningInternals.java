package io.chiplet.rules;

import java.util.Optional;
import java.util.Set;

/**
 * Core's planning internals, which the adapters (both plugins, the command line, the benchmarks) may not use: they
 * apply the finished per-worker targets core's planner returns ({@code WorkerTargets}, {@code NodeShare},
 * {@code MemoryBinding}, {@code HostShares}, {@code ChipletLock}) and decide nothing themselves (#24). No adapter uses
 * them; where one needs something they know, core's public placement types answer it.
 */
final class PlanningInternals
{
    /** Core's planning internals, by class name (their nested classes included). */
    static final Set<String> INTERNALS = Set.of(
            "io.chiplet.placement.Assignment",
            "io.chiplet.placement.UsableChiplets",
            "io.chiplet.placement.UsableTopology",
            "io.chiplet.placement.SpreadLocator",
            "io.chiplet.topology.ChipletMemory");

    private PlanningInternals() {}

    /** Whether a package is an adapter's: translates engine events or a command into core calls. */
    static boolean isAdapter(String packageName)
    {
        return packageName.startsWith("io.chiplet.spark") || packageName.startsWith("io.chiplet.trino")
                || packageName.startsWith("io.chiplet.jmh") || packageName.startsWith("io.chiplet.cli");
    }

    /** The internal a class is or is nested in, if it is one. */
    static Optional<String> internal(String topLevelClassName)
    {
        return INTERNALS.contains(topLevelClassName) ? Optional.of(topLevelClassName) : Optional.empty();
    }
}
