package io.chiplet.placement;

import io.chiplet.topology.CpuSet;

import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * What one worker is bound to, finished: every runner ({@code chiplet exec}, the engine plugins, the JMH harness)
 * applies it as it is, so {@code chiplet plan} prints exactly what runs.
 *
 * @param chiplet the chiplet the worker runs on; empty when its CPUs span several ({@code win} on a multi-chiplet node) or none are bound
 * @param cpusToBind the CPUs to bind the worker to, the pin unit applied (the whole chiplet under the chiplet
 *        policies); empty means leave the worker unbound ({@code wim})
 * @param memoryNodeToBind the NUMA node to bind the worker's memory to; empty means leave its memory policy alone
 */
public record WorkerPlacement(int worker, OptionalInt chiplet, Optional<CpuSet> cpusToBind, OptionalInt memoryNodeToBind)
{
    public WorkerPlacement
    {
        requireNonNull(chiplet, "chiplet is null");
        requireNonNull(cpusToBind, "cpusToBind is null");
        requireNonNull(memoryNodeToBind, "memoryNodeToBind is null");
        if (worker < 0) {
            throw new IllegalArgumentException("worker must not be negative: " + worker);
        }
        if (cpusToBind.isPresent() && cpusToBind.get().isEmpty()) {
            throw new IllegalArgumentException("worker " + worker + " has an empty CPU set to bind; use no CPUs (unbound) instead");
        }
    }

    /** A worker left as it is: no CPUs, no memory policy ({@code wim}). */
    public static WorkerPlacement unbound(int worker)
    {
        return new WorkerPlacement(worker, OptionalInt.empty(), Optional.empty(), OptionalInt.empty());
    }

    /** Whether applying this target changes anything. */
    public boolean bindsAnything()
    {
        return cpusToBind.isPresent() || memoryNodeToBind.isPresent();
    }
}
