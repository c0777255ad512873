package io.chiplet.placement;

import io.chiplet.placement.UsableTopology.UsableChiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Turns a policy into CPU sets and memory nodes. Pure: the topology and the request in, the plan out.
 *
 * <p>When there are more workers than the policy's unit (cores, chiplets, nodes), workers wrap around and share
 * evenly: no unit carries more than one worker more than another. Only allowed, online CPUs are ever handed out, and chiplets
 * with none of them are skipped.
 */
public final class PlacementPlanner
{
    private PlacementPlanner() {}

    /**
     * The finished targets for {@code request}'s workers within {@code share}: what every runner binds. The request's
     * own allowed CPUs are narrowed to the share.
     */
    public static WorkerPlacements targets(PlacementDomain share, PlacementRequest request, MemoryBinding memory)
    {
        requireNonNull(share, "share is null");
        requireNonNull(request, "request is null");
        requireNonNull(memory, "memory is null");
        Plan plan = plan(share.topology(), request.withAllowed(share.shareCpus().intersect(request.allowed())));
        return WorkerPlacements.finish(plan, share, memory);
    }

    /** The finished targets for {@code workers} workers of {@code policy} on all of {@code share}. */
    public static WorkerPlacements targets(PlacementDomain share, Policy policy, int workers, MemoryBinding memory)
    {
        requireNonNull(share, "share is null");
        return targets(share, new PlacementRequest(policy, workers, OptionalLong.empty(), share.shareCpus()), memory);
    }

    /**
     * The workers of {@code targets} placed the same way (the policy they asked for, as many) within {@code rescoped}:
     * after the process's allowed CPUs changed.
     */
    public static WorkerPlacements within(WorkerPlacements targets, PlacementDomain rescoped)
    {
        requireNonNull(targets, "targets is null");
        requireNonNull(rescoped, "rescoped is null");
        return targets(rescoped, new PlacementRequest(targets.plan().requested(), targets.workers(), OptionalLong.empty(), rescoped.shareCpus()), targets.memory());
    }

    public static Plan plan(Topology topology, PlacementRequest request)
    {
        requireNonNull(topology, "topology is null");
        requireNonNull(request, "request is null");
        UsableTopology usable = UsableTopology.of(topology, request.allowed());
        int workers = request.workers();
        return switch (request.policy()) {
            case WIM -> wim(usable, workers);
            case WIN -> win(usable, workers);
            case WICP_LOCAL -> wicpLocal(usable, workers, Policy.WICP_LOCAL, "fills one chiplet (cores, then SMT siblings) before the next, package by package");
            case WICP_MIXED -> wicpMixed(usable, workers, Policy.WICP_MIXED, "one worker per chiplet in turn, alternating packages");
            case WIC -> wic(usable, workers);
            case AUTO -> auto(usable, workers, request);
            case ADAPTIVE -> adaptive(usable, workers);
        };
    }

    private static Plan wim(UsableTopology usable, int workers)
    {
        List<Integer> nodes = nodeIds(usable);
        List<Assignment> assignments = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++) {
            assignments.add(new Assignment(worker, OptionalInt.empty(), usable.usable(), nodes.get(worker % nodes.size())));
        }
        return new Plan(Policy.WIM, Policy.WIM, assignments,
                "nothing is bound: every worker may run on all " + usable.usable().size() + " allowed CPUs and allocate on any node");
    }

    private static Plan win(UsableTopology usable, int workers)
    {
        List<NumaNode> nodes = usable.nodes();
        if (nodes.isEmpty()) {
            // No node information: the machine is one node, as the kernel treats it.
            List<Assignment> assignments = new ArrayList<>(workers);
            for (int worker = 0; worker < workers; worker++) {
                assignments.add(new Assignment(worker, OptionalInt.empty(), usable.usable(), 0));
            }
            return new Plan(Policy.WIN, Policy.WIN, assignments, "no NUMA information: one node holds every allowed CPU");
        }
        // Each node's CPU set and chiplet once; workers then only pick a node.
        CpuSet[] nodeCpus = new CpuSet[nodes.size()];
        OptionalInt[] nodeChiplet = new OptionalInt[nodes.size()];
        for (int n = 0; n < nodes.size(); n++) {
            CpuSet cpus = nodes.get(n).cpus().intersect(usable.usable());
            List<UsableChiplet> inside = usable.localOrder().stream().filter(c -> c.chiplet().cpus().intersects(cpus)).toList();
            nodeCpus[n] = cpus;
            nodeChiplet[n] = inside.size() == 1 ? OptionalInt.of(inside.get(0).id()) : OptionalInt.empty();
        }
        List<Assignment> assignments = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++) {
            int n = worker % nodes.size();
            assignments.add(new Assignment(worker, nodeChiplet[n], nodeCpus[n], nodes.get(n).id()));
        }
        return new Plan(Policy.WIN, Policy.WIN, assignments, "workers round-robin over " + nodes.size() + " NUMA node(s), each on its node's allowed CPUs");
    }

    private static Plan wicpLocal(UsableTopology usable, int workers, Policy requested, String reason)
    {
        record Slot(int cpu, UsableChiplet chiplet) {}
        List<Slot> slots = new ArrayList<>();
        for (UsableChiplet chiplet : usable.localOrder()) {
            for (int cpu : chiplet.cpuSlots()) {
                slots.add(new Slot(cpu, chiplet));
            }
        }
        List<Assignment> assignments = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++) {
            Slot slot = slots.get(worker % slots.size());
            assignments.add(new Assignment(worker, OptionalInt.of(slot.chiplet().id()), CpuSet.of(slot.cpu()), slot.chiplet().numaNode()));
        }
        return new Plan(Policy.WICP_LOCAL, requested, assignments, reason);
    }

    private static Plan wicpMixed(UsableTopology usable, int workers, Policy requested, String reason)
    {
        List<UsableChiplet> order = usable.spreadOrder();
        int chiplets = order.size();
        // Round-robin over the chiplets, skipping a chiplet once every core has a worker, then once every CPU has
        // one, then plain round-robin: no core is shared while another chiplet still has a free one.
        int[] chipletOfWorker = new int[workers];
        int[] count = new int[chiplets];
        int[][] capacity = new int[3][chiplets];
        for (int c = 0; c < chiplets; c++) {
            capacity[0][c] = order.get(c).cores().length;
            capacity[1][c] = order.get(c).cpuCount();
            capacity[2][c] = Integer.MAX_VALUE;
        }
        int phase = 0;
        int next = 0;
        for (int worker = 0; worker < workers; worker++) {
            // Once no chiplet has room in a phase none will again, so phases only move forward.
            int chosen = firstWithRoom(count, capacity[phase], next);
            while (chosen < 0) {
                phase++;
                chosen = firstWithRoom(count, capacity[phase], next);
            }
            chipletOfWorker[worker] = chosen;
            count[chosen]++;
            next = (chosen + 1) % chiplets;
        }
        List<List<CpuSet>> parts = new ArrayList<>(chiplets);
        for (int c = 0; c < chiplets; c++) {
            parts.add(split(order.get(c), count[c]));
        }
        int[] taken = new int[chiplets];
        List<Assignment> assignments = new ArrayList<>(workers);
        for (int worker = 0; worker < workers; worker++) {
            int c = chipletOfWorker[worker];
            UsableChiplet chiplet = order.get(c);
            assignments.add(new Assignment(worker, OptionalInt.of(chiplet.id()), parts.get(c).get(taken[c]++), chiplet.numaNode()));
        }
        return new Plan(Policy.WICP_MIXED, requested, assignments, reason);
    }

    private static int firstWithRoom(int[] count, int[] capacity, int from)
    {
        for (int tried = 0; tried < count.length; tried++) {
            int c = (from + tried) % count.length;
            if (count[c] < capacity[c]) {
                return c;
            }
        }
        return -1;
    }

    /**
     * Splits a chiplet between {@code parts} workers: whole cores in contiguous groups while there are enough cores,
     * then one CPU each (first threads before SMT siblings), then CPUs reused round-robin.
     */
    private static List<CpuSet> split(UsableChiplet chiplet, int parts)
    {
        List<CpuSet> result = new ArrayList<>(parts);
        int[][] cores = chiplet.cores();
        if (parts <= cores.length) {
            int next = 0;
            for (int part = 0; part < parts; part++) {
                int size = cores.length / parts + (part < cores.length % parts ? 1 : 0);
                CpuSet cpus = CpuSet.empty();
                for (int k = 0; k < size; k++) {
                    cpus = cpus.union(CpuSet.of(cores[next++]));
                }
                result.add(cpus);
            }
            return result;
        }
        int[] slots = chiplet.cpuSlots();
        for (int part = 0; part < parts; part++) {
            result.add(CpuSet.of(slots[part % slots.length]));
        }
        return result;
    }

    private static Plan wic(UsableTopology usable, int workers)
    {
        List<Assignment> assignments = new ArrayList<>(workers);
        int cores = usable.physicalCores();
        if (workers > cores) {
            // One core each is impossible: one CPU each (first threads, then siblings), then even sharing.
            Plan local = wicpLocal(usable, workers, Policy.WIC, "");
            return new Plan(Policy.WIC, Policy.WIC, local.assignments(),
                    workers + " workers exceed " + cores + " allowed physical cores: one CPU each, SMT siblings after first threads, then shared evenly");
        }
        int worker = 0;
        for (UsableChiplet chiplet : usable.localOrder()) {
            for (int[] core : chiplet.cores()) {
                if (worker == workers) {
                    break;
                }
                assignments.add(new Assignment(worker++, OptionalInt.of(chiplet.id()), CpuSet.of(core), chiplet.numaNode()));
            }
        }
        return new Plan(Policy.WIC, Policy.WIC, assignments, "one physical core (with its SMT siblings) per worker, chiplet by chiplet");
    }

    private static Plan auto(UsableTopology usable, int workers, PlacementRequest request)
    {
        List<UsableChiplet> chiplets = usable.localOrder();
        long oneL3 = chiplets.stream().mapToLong(chiplet -> chiplet.chiplet().l3Bytes()).min().orElse(0);
        long sumL3 = usable.spreadOrder().stream().limit(workers).mapToLong(chiplet -> chiplet.chiplet().l3Bytes()).sum();
        if (request.workingSetBytes().isEmpty()) {
            return wicpMixed(usable, workers, Policy.AUTO,
                    "working set unknown: wicp-mixed, the OLAP study's best default (Fogli et al., PVLDB 2024, §4.2) that never shrinks the L3 a worker sees below one chiplet's");
        }
        long workingSet = request.workingSetBytes().getAsLong();
        if (oneL3 == 0) {
            return wicpMixed(usable, workers, Policy.AUTO, "the topology reports no L3 size: wicp-mixed, the OLAP study's best default (Fogli et al., PVLDB 2024, §4.2)");
        }
        if (workingSet <= oneL3) {
            return wicpLocal(usable, workers, Policy.AUTO, "working set " + Bytes.format(workingSet) + " fits one chiplet's L3 ("
                    + Bytes.format(oneL3) + "): wicp-local keeps it there without inter-chiplet traffic (Fogli et al., PVLDB 2024, §4.4)");
        }
        if (workingSet <= sumL3) {
            return wicpMixed(usable, workers, Policy.AUTO, "working set " + Bytes.format(workingSet) + " exceeds one chiplet's L3 ("
                    + Bytes.format(oneL3) + ") but fits the " + Bytes.format(sumL3) + " of the chiplets used: wicp-mixed (Fogli et al., PVLDB 2024, §4.4)");
        }
        return wicpMixed(usable, workers, Policy.AUTO, "working set " + Bytes.format(workingSet) + " exceeds the " + Bytes.format(sumL3)
                + " of L3 in reach: local and mixed converge (Fogli et al., PVLDB 2024, §4.4); wicp-mixed spreads memory bandwidth");
    }

    private static Plan adaptive(UsableTopology usable, int workers)
    {
        int[] spreads = new int[workers];
        Arrays.fill(spreads, 1);
        List<Assignment> assignments = new SpreadLocator(usable.localOrder()).assignments(spreads);
        return new Plan(Policy.ADAPTIVE, Policy.ADAPTIVE, assignments,
                "CHARM start: spread 1 for every worker (chiplets filled socket by socket); the spread controller widens it per worker at run time");
    }

    private static List<Integer> nodeIds(UsableTopology usable)
    {
        List<Integer> ids = usable.nodes().stream().map(NumaNode::id).toList();
        return ids.isEmpty() ? List.of(0) : ids;
    }
}
