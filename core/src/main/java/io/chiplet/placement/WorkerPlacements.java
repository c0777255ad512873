package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * A finished placement: what each worker is bound to, in worker order, with the decisions the planner's {@link Plan}
 * leaves open made here once: the pin unit ({@link Policy#pinsWholeChiplets()}: the whole chiplet's share CPUs under the
 * chiplet policies), {@code wim} as no binding at all, and each worker's memory node under {@link MemoryBinding}'s rule.
 * Runners apply {@link #targets()} as they are. Pure. A value: the planner makes these
 * ({@link PlacementPlanner#targets}, and {@link PlacementPlanner#within} after a process's allowed CPUs change) and
 * this record knows nothing of the planner.
 *
 * @param plan what the planner decided (the CPUs it booked per worker, the policy {@code auto} resolved to, why)
 * @param share the CPUs and chiplets the workers were placed on
 * @param memory the memory rule the targets were finished with
 */
public record WorkerPlacements(Plan plan, PlacementDomain share, MemoryBinding memory, List<WorkerPlacement> targets)
{
    public WorkerPlacements
    {
        requireNonNull(plan, "plan is null");
        requireNonNull(share, "share is null");
        requireNonNull(memory, "memory is null");
        targets = List.copyOf(targets);
    }

    /** {@code plan}'s assignments finished into targets within {@code share}. */
    static WorkerPlacements finish(Plan plan, PlacementDomain share, MemoryBinding memory)
    {
        List<WorkerPlacement> targets = new ArrayList<>(plan.assignments().size());
        for (Assignment assignment : plan.assignments()) {
            targets.add(target(plan.policy(), assignment.worker(), assignment.chiplet(), assignment.cpus(), assignment.numaNode(), share, memory));
        }
        return new WorkerPlacements(plan, share, memory, targets);
    }

    private static WorkerPlacement target(Policy policy, int worker, OptionalInt chiplet, CpuSet planned, int plannedNode, PlacementDomain share, MemoryBinding memory)
    {
        if (!policy.bindsWorkers()) {
            // wim is the study's one-instance-per-machine baseline: no CPU and no memory restriction (§3.2).
            return WorkerPlacement.unbound(worker);
        }
        // A chiplet policy pins the whole chiplet: inside one L3 the kernel may balance threads freely at no cost in
        // locality; the plan only decided how many workers each chiplet gets.
        CpuSet cpus = planned;
        if (policy.pinsWholeChiplets() && chiplet.isPresent()) {
            // A topology without chiplets is planned as one chiplet: the whole share.
            cpus = share.chiplets().isEmpty() ? share.shareCpus() : share.cpusOf(chiplet.getAsInt());
        }
        OptionalInt node = chiplet.isPresent() ? memory.nodeFor(chiplet.getAsInt(), plannedNode) : memory.allowedNode(plannedNode);
        return new WorkerPlacement(worker, chiplet, Optional.of(cpus), node);
    }

    /** The policy applied ({@code auto} resolved). */
    public Policy policy()
    {
        return plan.policy();
    }

    public int workers()
    {
        return targets.size();
    }

    public WorkerPlacement target(int worker)
    {
        return targets.get(worker);
    }

    /** Whether any worker's memory is bound under these targets. */
    public boolean bindsMemory()
    {
        return targets.stream().anyMatch(target -> target.memoryNodeToBind().isPresent());
    }

    /**
     * What these targets do with memory, in words: {@code chiplet plan}'s {@code memory:} line and the plugins' start-up
     * log, so both say the same. Read from the finished targets: under {@code wim} nothing is bound whatever was asked.
     */
    public String memoryDescription()
    {
        if (bindsMemory()) {
            return "bound to each worker's " + (memory.memory().kind() == MemoryKind.DRAM ? "NUMA node" : memory.memory().kind().jsonName() + " node")
                    + memory.shortfall().map(problem -> " (" + problem + ")").orElse("");
        }
        if (!memory.requested()) {
            return "not bound (not asked for)";
        }
        if (!memory.binds()) {
            return "not bound: " + memory.allowedNodes().size() + " NUMA node(s), no choice to make";
        }
        return "not bound under " + policy().cliName();
    }

    /**
     * The adaptive loop's step (CHARM): the workers placed again for {@code spreads} (how many chiplets each worker's
     * data should span; clamped to {@code 1..}{@link PlacementDomain#maxSpread()}), each pinned to the whole chiplet the locator books it on,
     * within this share. The adaptive controller decides the spreads; this turns them into targets.
     *
     * @param spreads one spread per worker
     * @throws IllegalArgumentException when there is not one spread per worker
     */
    public WorkerPlacements withSpreads(int[] spreads)
    {
        requireNonNull(spreads, "spreads is null");
        int workers = targets.size();
        if (spreads.length != workers) {
            throw new IllegalArgumentException("expected one spread per worker (" + workers + ") but got " + spreads.length);
        }
        List<Assignment> assignments = SpreadLocator.of(share.topology(), share.shareCpus()).assignments(spreads);
        Plan moved = new Plan(Policy.ADAPTIVE, plan.requested(), assignments, "CHARM step: spreads " + Arrays.toString(spreads));
        return finish(moved, share, memory);
    }

    /**
     * The same targets handed to workers that are already running somewhere (Trino's query threads, found on each
     * rescan): a worker whose current CPUs are those of a target not yet handed out keeps them (the first such target),
     * so a rescan moves no thread without need; the others take the targets left, in target order. So each target is
     * handed out once, and workers with nothing to keep get what {@code chiplet plan} prints for them (with no current
     * CPUs at all, worker i gets target i). Under {@code wim} every worker stays unbound.
     *
     * @param current each worker's CPUs now, in worker order (empty: a new worker, or one not bound by us)
     * @throws IllegalArgumentException when there is not one entry per worker
     */
    public List<WorkerPlacement> keepingCurrent(List<Optional<CpuSet>> current)
    {
        requireNonNull(current, "current is null");
        if (current.size() != targets.size()) {
            throw new IllegalArgumentException("expected the CPUs of each of " + targets.size() + " workers but got " + current.size());
        }
        if (targets.stream().anyMatch(target -> target.cpusToBind().isEmpty())) {
            return targets;
        }
        boolean[] handedOut = new boolean[targets.size()];
        WorkerPlacement[] result = new WorkerPlacement[targets.size()];
        List<Integer> moving = new ArrayList<>();
        for (int worker = 0; worker < targets.size(); worker++) {
            int kept = current.get(worker).isPresent() ? firstLeftWith(current.get(worker).get(), handedOut) : -1;
            if (kept >= 0) {
                handedOut[kept] = true;
                result[worker] = renumbered(targets.get(kept), worker);
            }
            else {
                moving.add(worker);
            }
        }
        int next = 0;
        for (int worker : moving) {
            while (handedOut[next]) {
                next++;
            }
            handedOut[next] = true;
            result[worker] = renumbered(targets.get(next), worker);
        }
        return List.of(result);
    }

    /** The first target not handed out whose CPUs are {@code cpus}, or -1. */
    private int firstLeftWith(CpuSet cpus, boolean[] handedOut)
    {
        for (int i = 0; i < targets.size(); i++) {
            if (!handedOut[i] && targets.get(i).cpusToBind().orElseThrow().equals(cpus)) {
                return i;
            }
        }
        return -1;
    }

    private static WorkerPlacement renumbered(WorkerPlacement target, int worker)
    {
        return new WorkerPlacement(worker, target.chiplet(), target.cpusToBind(), target.memoryNodeToBind());
    }
}
