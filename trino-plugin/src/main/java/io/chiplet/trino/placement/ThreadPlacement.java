package io.chiplet.trino.placement;

import io.chiplet.placement.Assignment;
import io.chiplet.placement.CpusetAlignment;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.PlacementRequest;
import io.chiplet.placement.Plan;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SpreadLocator;
import io.chiplet.placement.UsableChiplets;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Decides where a node's query threads run. Pure: the topology, the CPUs this node may use (its leased chiplets
 * within what the kernel allows the process) and the threads in; one target per thread out.
 *
 * <h2>Units</h2>
 * The placement planner, asked for one worker per query thread, says how many threads each unit gets; the unit is
 * what a thread is pinned to, as core decides it ({@link Policy#pinsWholeChiplets()}, {@link UsableChiplets#pinUnit}):
 * under the chiplet policies the whole chiplet, which suits Trino's runner threads (they outnumber the CPUs and block
 * on I/O and exchanges, so the kernel keeps balancing them inside the L3 the policy chose); under {@code wic} the
 * planner's core, under {@code win} its NUMA node. {@code wim} pins nothing.
 *
 * <h2>Stable</h2>
 * Threads and their number change (Trino starts runner threads lazily and may retire them), and moving a thread
 * costs its cache. A thread keeps its unit while that unit has room in the new plan; only threads beyond a unit's
 * share, and new threads, move, to the first units (in plan order) still short of theirs. So the counts always match
 * the plan, balanced as the policy balances workers, and threads move only where the counts require it.
 *
 * <p>{@code adaptive} places by CHARM's locator instead: each thread's spread (from the spread controller) decides
 * how many threads share its chiplet, threads taken in thread-id order.
 */
public final class ThreadPlacement
{
    private final Topology topology;
    private final Policy policy;
    private final CpuSet allowed;
    private final UsableChiplets usable;

    /**
     * @param allowed the CPUs threads may be pinned to: this node's leased chiplets within the process's CPUs
     * @throws IllegalArgumentException when no chiplet of the topology holds an allowed CPU
     */
    public ThreadPlacement(Topology topology, Policy policy, CpuSet allowed)
    {
        this.topology = requireNonNull(topology, "topology is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.allowed = requireNonNull(allowed, "allowed is null");
        this.usable = UsableChiplets.of(topology, allowed);
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("no chiplet of the topology (" + topology.source() + ") holds any of the CPUs this node may use ["
                    + allowed + "]");
        }
    }

    public Policy policy()
    {
        return policy;
    }

    public CpuSet allowed()
    {
        return allowed;
    }

    /**
     * This placement after the process's allowed CPUs changed to {@code nowAllowed}: on this placement's chiplets
     * within them, or on all of them when none of its chiplets is left ({@link CpusetAlignment#rescope}).
     *
     * @throws IllegalArgumentException when no chiplet of the topology holds any of {@code nowAllowed}
     */
    public ThreadPlacement followingCpuset(CpuSet nowAllowed)
    {
        return new ThreadPlacement(topology, policy, CpusetAlignment.rescope(topology, allowed, nowAllowed));
    }

    /** How many chiplets hold allowed CPUs: the widest an adaptive spread can grow. */
    public int usableChiplets()
    {
        return usable.size();
    }

    /**
     * Targets for every thread of {@code tids} under a planned policy (not {@code adaptive}).
     *
     * @param current each thread's present mask, for the threads placed before; threads absent are new
     * @return one target per thread, in ascending thread id; empty under {@code wim}
     */
    public List<ThreadTarget> place(List<Integer> tids, Map<Integer, CpuSet> current)
    {
        requireNonNull(tids, "tids is null");
        requireNonNull(current, "current is null");
        if (policy == Policy.ADAPTIVE) {
            throw new IllegalStateException("the adaptive policy places by spreads: call placeAdaptive");
        }
        List<Integer> sorted = tids.stream().sorted().distinct().toList();
        if (sorted.isEmpty() || policy == Policy.WIM) {
            return List.of();
        }
        Plan plan = PlacementPlanner.plan(topology, new PlacementRequest(policy, sorted.size(), OptionalLong.empty(), allowed));
        // Units in plan order with the number of threads each gets.
        Map<CpuSet, Unit> units = new LinkedHashMap<>();
        for (Assignment assignment : plan.assignments()) {
            Unit unit = new Unit(assignment.chiplet(), usable.pinUnit(policy, assignment), 1);
            units.merge(unit.cpus(), unit, (a, b) -> new Unit(a.chiplet(), a.cpus(), a.room() + 1));
        }
        Map<CpuSet, Integer> room = new HashMap<>();
        units.values().forEach(unit -> room.put(unit.cpus(), unit.room()));

        Map<Integer, ThreadTarget> targets = new HashMap<>();
        List<Integer> moving = new ArrayList<>();
        for (int tid : sorted) {
            CpuSet mask = current.get(tid);
            if (mask != null && room.getOrDefault(mask, 0) > 0) {
                room.merge(mask, -1, Integer::sum);
                targets.put(tid, new ThreadTarget(tid, units.get(mask).chiplet(), mask));
            }
            else {
                moving.add(tid);
            }
        }
        List<Unit> order = List.copyOf(units.values());
        int next = 0;
        for (int tid : moving) {
            while (room.get(order.get(next).cpus()) == 0) {
                next++;
            }
            Unit unit = order.get(next);
            room.merge(unit.cpus(), -1, Integer::sum);
            targets.put(tid, new ThreadTarget(tid, unit.chiplet(), unit.cpus()));
        }
        return sorted.stream().map(targets::get).toList();
    }

    /**
     * Targets under {@code adaptive}: thread {@code tids[i]} (ascending) at spread {@code spreads[i]}.
     */
    public List<ThreadTarget> placeAdaptive(List<Integer> tids, int[] spreads)
    {
        requireNonNull(tids, "tids is null");
        requireNonNull(spreads, "spreads is null");
        List<Integer> sorted = tids.stream().sorted().distinct().toList();
        if (spreads.length < sorted.size()) {
            throw new IllegalArgumentException("expected a spread for each of " + sorted.size() + " threads but got " + spreads.length);
        }
        if (sorted.isEmpty()) {
            return List.of();
        }
        SpreadLocator locator = SpreadLocator.of(topology, allowed);
        int[] cpus = new int[sorted.size()];
        int[] chiplets = new int[sorted.size()];
        locator.locate(spreads, sorted.size(), cpus, chiplets);
        List<ThreadTarget> targets = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            int id = locator.chipletId(chiplets[i]);
            targets.add(new ThreadTarget(sorted.get(i), OptionalInt.of(id), usable.cpusOf(id)));
        }
        return List.copyOf(targets);
    }

    private record Unit(OptionalInt chiplet, CpuSet cpus, int room) {}
}
