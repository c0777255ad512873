package io.chiplet.trino.placement;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.CpuSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where a node's query threads run: core's finished targets ({@link PlacementPlanner#targets}) for one worker per
 * query thread, handed to the threads in ascending thread id. Every decision is core's (the pin unit: the whole
 * chiplet under the chiplet policies, the planner's core under {@code wic}, the node's share CPUs under {@code win},
 * nothing under {@code wim}; the memory node; the adaptive step; which threads keep their place on a rescan); this
 * class only translates threads into workers and back. Pure.
 *
 * <h2>Stable</h2>
 * Threads and their number change (Trino starts runner threads lazily and may retire them), and moving a thread
 * costs its cache: a rescan hands the targets to the running threads with {@link WorkerPlacements#keepingCurrent}, so a
 * thread keeps its CPUs while they have room in the new targets and only the others move.
 *
 * <h2>Memory</h2>
 * Each target names the node core would bind the thread's memory to ({@link ThreadAssignment#memoryNode()}), but a
 * thread's memory policy can only be set by the thread itself and Trino's runner threads run no code of ours: it is
 * not applied. Memory follows the threads by first touch (under {@code dram} every bound mask lies on that node);
 * the node runtime tells the operator the nodes to start the JVM on where that is not enough.
 *
 * <p>{@code adaptive} places by the spreads of the spread controller instead ({@link WorkerPlacements#withSpreads}),
 * threads taken in thread-id order.
 */
public final class ThreadPlacement
{
    private final PlacementDomain share;
    private final Policy policy;
    private final MemoryBinding memory;

    /**
     * @param share the CPUs and chiplets threads are placed on: this node's leased chiplets within the process's CPUs
     * @param memory core's memory rule: which node each target names (not applied, see the class doc)
     */
    public ThreadPlacement(PlacementDomain share, Policy policy, MemoryBinding memory)
    {
        this.share = requireNonNull(share, "share is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.memory = requireNonNull(memory, "memory is null");
    }

    public Policy policy()
    {
        return policy;
    }

    public PlacementDomain share()
    {
        return share;
    }

    /** The CPUs threads may be bound to: the share's. */
    public CpuSet allowed()
    {
        return share.shareCpus();
    }

    /**
     * This placement after the process's allowed CPUs changed to {@code nowAllowed}: core's rescoped share
     * ({@link PlacementDomain#rescopedTo}).
     *
     * @throws IllegalArgumentException when no chiplet of the topology holds any of {@code nowAllowed}
     */
    public ThreadPlacement followingCpuset(CpuSet nowAllowed)
    {
        return new ThreadPlacement(share.rescopedTo(nowAllowed), policy, memory);
    }

    /** How many chiplets the share holds: the widest an adaptive spread can grow. */
    public int usableChiplets()
    {
        return share.maxSpread();
    }

    /**
     * Targets for every thread of {@code tids} under a planned policy (not {@code adaptive}).
     *
     * @param current each thread's present mask, for the threads placed before; threads absent are new
     * @return one target per thread, in ascending thread id; empty under {@code wim}
     */
    public List<ThreadAssignment> place(List<Integer> tids, Map<Integer, CpuSet> current)
    {
        requireNonNull(tids, "tids is null");
        requireNonNull(current, "current is null");
        if (policy.adaptsAtRunTime()) {
            throw new IllegalStateException("policy " + policy + " places by spreads: call placeAdaptive");
        }
        List<Integer> sorted = tids.stream().sorted().distinct().toList();
        if (sorted.isEmpty()) {
            return List.of();
        }
        WorkerPlacements targets = PlacementPlanner.targets(share, policy, sorted.size(), memory);
        List<Optional<CpuSet>> masks = sorted.stream().map(tid -> Optional.ofNullable(current.get(tid))).toList();
        return threads(sorted, targets.keepingCurrent(masks));
    }

    /**
     * Targets under {@code adaptive}: thread {@code tids[i]} (ascending) at spread {@code spreads[i]}.
     */
    public List<ThreadAssignment> placeAdaptive(List<Integer> tids, int[] spreads)
    {
        requireNonNull(tids, "tids is null");
        requireNonNull(spreads, "spreads is null");
        if (!policy.adaptsAtRunTime()) {
            throw new IllegalStateException("policy " + policy + " does not place by spreads: call place");
        }
        List<Integer> sorted = tids.stream().sorted().distinct().toList();
        if (spreads.length < sorted.size()) {
            throw new IllegalArgumentException("expected a spread for each of " + sorted.size() + " threads but got " + spreads.length);
        }
        if (sorted.isEmpty()) {
            return List.of();
        }
        WorkerPlacements targets = PlacementPlanner.targets(share, policy, sorted.size(), memory).withSpreads(Arrays.copyOf(spreads, sorted.size()));
        return threads(sorted, targets.targets());
    }

    /** Worker i is thread {@code sorted[i]}; unbound workers ({@code wim}) get no target. */
    private static List<ThreadAssignment> threads(List<Integer> sorted, List<WorkerPlacement> workers)
    {
        List<ThreadAssignment> threads = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            WorkerPlacement worker = workers.get(i);
            int tid = sorted.get(i);
            worker.cpusToBind().ifPresent(cpus -> threads.add(new ThreadAssignment(tid, worker.chiplet(), cpus, worker.memoryNodeToBind())));
        }
        return List.copyOf(threads);
    }
}
