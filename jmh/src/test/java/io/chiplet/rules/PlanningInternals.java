package io.chiplet.rules;

import java.util.Optional;
import java.util.Set;

/**
 * Core's planning internals, which the adapters (both plugins, the command line, the benchmarks) may not use: they
 * apply the finished per-worker targets core's planner returns and decide nothing themselves (#24). The adapters
 * still use them in the places {@link #KNOWN_USES} names, each to be removed when that adapter moves to core's
 * targets (#24 phase B); the list may only shrink, and an entry no longer true fails too, so it is kept exact.
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

    /**
     * The adapters' uses of the internals today, "top-level class -> internal": to be removed when the plugins move
     * to core's targets, #24 phase B. Never add to it.
     */
    static final Set<String> KNOWN_USES = Set.of(
            "io.chiplet.cli.ExecCommand -> io.chiplet.topology.ChipletMemory",
            "io.chiplet.jmh.PlannerBenchmark -> io.chiplet.placement.SpreadLocator",
            "io.chiplet.jmh.workload.WorkloadTrial -> io.chiplet.placement.UsableChiplets",
            "io.chiplet.spark.executor.ChipletExecutorPlugin -> io.chiplet.placement.UsableChiplets",
            "io.chiplet.spark.placement.BoundTaskPlacement -> io.chiplet.topology.ChipletMemory",
            "io.chiplet.spark.placement.ExecutorProcessPlacement -> io.chiplet.topology.ChipletMemory");

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
