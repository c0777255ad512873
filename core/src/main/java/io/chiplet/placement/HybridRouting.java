package io.chiplet.placement;

import io.chiplet.topology.CoreKind;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import static java.util.Objects.requireNonNull;

/**
 * Routing of work on hybrid parts, after the heterogeneity-aware strategy of Schuhknecht and Islam, "Inter-Query Parallelism on Heterogeneous Multi-Core CPUs": compute-bound
 * and random-access work prefers performance cores (sorting and random copies run markedly faster there), sequential
 * scans are bandwidth-bound and run about as fast on efficiency cores. When no core of the preferred kind is free the
 * work goes to the other kind; when neither is free it queues for the preferred one. Pure: busy counts in, route out.
 */
public final class HybridRouting
{
    public enum WorkKind
    {
        COMPUTE, RANDOM_ACCESS, SEQUENTIAL_SCAN
    }

    public enum CoreClass
    {
        PERFORMANCE, EFFICIENCY
    }

    /**
     * @param fallback whether the work goes to the kind it does not prefer
     * @param queued whether every core is busy and the work waits for its preferred kind
     */
    public record Route(CoreClass coreClass, CpuSet cpus, boolean fallback, boolean queued) {}

    private final CpuSet performance;
    private final CpuSet efficiency;
    private final int performanceCount;
    private final int efficiencyCount;

    private HybridRouting(CpuSet performance, CpuSet efficiency)
    {
        this.performance = performance;
        this.efficiency = efficiency;
        this.performanceCount = performance.size();
        this.efficiencyCount = efficiency.size();
    }

    /**
     * Performance CPUs are the most performant kind (rank 0); every other kind counts as efficiency. A part with one
     * kind of core has only performance CPUs, and everything routes there.
     */
    public static HybridRouting of(Topology topology, CpuSet allowed)
    {
        requireNonNull(topology, "topology is null");
        CpuSet usable = allowed.intersect(topology.online());
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("none of the allowed CPUs [" + allowed + "] is online");
        }
        if (!topology.isHybrid()) {
            return new HybridRouting(usable, CpuSet.empty());
        }
        int bestRank = topology.coreKinds().stream().mapToInt(CoreKind::rank).min().orElseThrow();
        CpuSet performance = CpuSet.empty();
        for (CoreKind kind : topology.coreKinds()) {
            if (kind.rank() == bestRank) {
                performance = performance.union(kind.cpus());
            }
        }
        performance = performance.intersect(usable);
        CpuSet efficiency = usable.minus(performance);
        return performance.isEmpty() ? new HybridRouting(efficiency, CpuSet.empty()) : new HybridRouting(performance, efficiency);
    }

    /**
     * The kind of work a task did, from what it read: a task that read an exchange (a shuffle) builds hash tables,
     * sorts or merges what it read, random access; a task that read only its source scans it, sequentially; a task
     * that read neither computes.
     */
    public static WorkKind kindOf(long exchangeBytesRead, long sourceBytesRead)
    {
        if (exchangeBytesRead < 0 || sourceBytesRead < 0) {
            throw new IllegalArgumentException("bytes read must not be negative");
        }
        return exchangeBytesRead > 0 ? WorkKind.RANDOM_ACCESS : sourceBytesRead > 0 ? WorkKind.SEQUENTIAL_SCAN : WorkKind.COMPUTE;
    }

    /** Whether there are CPUs of both classes to route between. */
    public boolean isHybrid()
    {
        return efficiencyCount > 0;
    }

    public static CoreClass preferred(WorkKind kind)
    {
        return switch (requireNonNull(kind, "kind is null")) {
            case COMPUTE, RANDOM_ACCESS -> CoreClass.PERFORMANCE;
            case SEQUENTIAL_SCAN -> CoreClass.EFFICIENCY;
        };
    }

    /**
     * @param busyPerformance performance CPUs now running work
     * @param busyEfficiency efficiency CPUs now running work
     */
    public Route route(WorkKind kind, int busyPerformance, int busyEfficiency)
    {
        if (busyPerformance < 0 || busyEfficiency < 0) {
            throw new IllegalArgumentException("busy counts must not be negative");
        }
        CoreClass wanted = efficiencyCount == 0 ? CoreClass.PERFORMANCE : preferred(kind);
        CoreClass other = wanted == CoreClass.PERFORMANCE ? CoreClass.EFFICIENCY : CoreClass.PERFORMANCE;
        if (hasFree(wanted, busyPerformance, busyEfficiency)) {
            return new Route(wanted, cpus(wanted), false, false);
        }
        if (hasFree(other, busyPerformance, busyEfficiency)) {
            return new Route(other, cpus(other), true, false);
        }
        return new Route(wanted, cpus(wanted), false, true);
    }

    private boolean hasFree(CoreClass coreClass, int busyPerformance, int busyEfficiency)
    {
        return coreClass == CoreClass.PERFORMANCE ? busyPerformance < performanceCount : busyEfficiency < efficiencyCount;
    }

    public CpuSet cpus(CoreClass coreClass)
    {
        return coreClass == CoreClass.PERFORMANCE ? performance : efficiency;
    }
}
