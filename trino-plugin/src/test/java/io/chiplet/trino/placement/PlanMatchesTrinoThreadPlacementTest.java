package io.chiplet.trino.placement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chiplet.binding.ChipletLock;
import io.chiplet.cli.PlanRun;
import io.chiplet.discovery.BundledMachines;
import io.chiplet.discovery.BundledMachines.Machine;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.NumaNode;
import io.chiplet.trino.connector.TrinoSettings;
import io.chiplet.trino.connector.NodeSetup;
import io.chiplet.trino.placement.AgentSnapshot.PlacedThread;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trino's thread placement binds what {@code chiplet plan} prints: on every bundled machine (core's hwloc XMLs and
 * sysfs snapshots, enumerated as cli's {@code AdviceInvariantsTest} does), for every policy and several thread
 * counts, the placement agent runs one pass over that many query threads with a fake binder, and each thread's mask
 * (threads in ascending id are plan's workers in order) is the {@code cpus} plan prints for that worker; a worker plan
 * leaves unbound ({@code wim}) is a thread the agent never binds.
 *
 * <p>Memory: Trino binds other threads, and a thread's memory policy can only be set by the thread itself, so the
 * binder takes CPUs only and no memory policy is ever applied. What core would bind ({@code memoryNode}) is carried
 * to each {@link ThreadAssignment} and compared with plan; under {@code dram} it is reached by first touch (every CPU of
 * the thread's mask lies on that node), and for another kind the nodes are named to the operator
 * ({@link MemoryAdvice}).
 */
class PlanMatchesTrinoThreadPlacementTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Machine> MACHINES = new ArrayList<>();
    /** The machines with a usable chiplet, each with its node share. */
    private static final List<MachineShare> SHARES = new ArrayList<>();
    @TempDir
    static Path unpacked;

    private record MachineShare(Machine machine, PlacementDomain share) {}

    @BeforeAll
    static void loadMachines()
            throws IOException
    {
        MACHINES.addAll(BundledMachines.load(unpacked));
        MACHINES.forEach(machine -> share(machine).ifPresent(share -> SHARES.add(new MachineShare(machine, share))));
    }

    /** The machine's node share; empty where it has no usable chiplet: Trino's node runtime starts no agent, and plan refuses as well. */
    private static Optional<PlacementDomain> share(Machine machine)
    {
        try {
            return Optional.of(PlacementDomain.of(machine.topology()));
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Test
    void everyBundledMachineIsCompared()
    {
        // 7 hwloc XMLs and 33 snapshots at the time of writing: a lost resource path must not pass with a few.
        assertThat(MACHINES.stream().filter(Machine::isHwlocXml).count()).isGreaterThanOrEqualTo(7);
        assertThat(MACHINES.stream().filter(machine -> !machine.isHwlocXml()).count()).isGreaterThanOrEqualTo(33);
    }

    /** {@code chiplet plan} reads each machine from its file or root as the tests' topologies are read here. */
    @Test
    void planReadsEachMachineAsTheTestDoes()
    {
        for (Machine machine : MACHINES) {
            List<String> args = new ArrayList<>(List.of("--policy", "wicp-mixed", "--workers", "3", "--format", "json"));
            String given = PlanRun.output(machine.topology(), args.toArray(String[]::new));
            args.addAll(machine.source());
            if (share(machine).isPresent()) {
                assertThat(PlanRun.output(args.toArray(String[]::new))).as(machine.name()).isEqualTo(given);
            }
        }
    }

    static List<Policy> policies()
    {
        return List.of(Policy.values());
    }

    @ParameterizedTest
    @MethodSource("policies")
    void everyThreadIsBoundToThePlannedCpus(Policy policy)
    {
        int compared = 0;
        for (MachineShare each : SHARES) {
            Machine machine = each.machine();
            PlacementDomain share = each.share();
            int chiplets = Math.max(1, share.chiplets().size());
            for (int threads : new TreeSet<>(List.of(1, chiplets, 2 * chiplets + 1))) {
                List<PlannedWorker> planned = plan(machine, policy, threads, "dram");
                assertThat(planned).as("%s %s %d", machine, policy, threads).hasSize(threads);

                FakeQueryThreadBinder binder = new FakeQueryThreadBinder();
                List<Integer> tids = IntStream.range(0, threads).map(i -> 1000 + 3 * i).boxed().toList();
                tids.forEach(tid -> binder.start(tid, "SplitRunner-" + tid));
                ThreadPlacement placement = nodePlacement(machine, policy);
                try (PlacementAgent agent = new PlacementAgent("test", placement, binder, binder, Duration.ofMillis(500), 300, List.of())) {
                    agent.pass();
                    assertThat(agent.snapshot().stopped()).as("%s %s %d", machine, policy, threads).isEmpty();
                    Map<Integer, PlacedThread> placed = new java.util.HashMap<>();
                    agent.snapshot().threads().forEach(thread -> placed.put(thread.tid(), thread));
                    for (int i = 0; i < threads; i++) {
                        PlannedWorker worker = planned.get(i);
                        int tid = tids.get(i);
                        String what = machine + " " + policy + " " + threads + " threads, worker " + i;
                        if (worker.cpus().isEmpty()) {
                            assertThat(binder.bindCalls).as(what).doesNotContainKey(tid);
                            assertThat(binder.mask(tid)).as(what).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
                        }
                        else {
                            assertThat(binder.mask(tid)).as(what).isEqualTo(worker.cpus().get());
                            assertThat(placed.get(tid).chiplet()).as(what).isEqualTo(worker.chiplet());
                        }
                    }
                }
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(100);
    }

    /** Each thread's target names plan's memory node (never applied); under dram first touch reaches it. */
    @ParameterizedTest
    @MethodSource("policies")
    void eachThreadsMemoryNodeIsPlansAndFirstTouchReachesItUnderDram(Policy policy)
    {
        for (MachineShare each : SHARES) {
            Machine machine = each.machine();
            PlacementDomain share = each.share();
            int threads = 2 * Math.max(1, share.chiplets().size()) + 1;
            List<PlannedWorker> planned = plan(machine, policy, threads, "dram");
            List<ThreadAssignment> targets = targets(nodePlacement(machine, policy), threads);
            if (policy == Policy.WIM) {
                assertThat(targets).isEmpty();
                assertThat(planned).allSatisfy(worker -> assertThat(worker.memoryNode()).isEmpty());
                continue;
            }
            for (int i = 0; i < threads; i++) {
                String what = machine + " " + policy + " worker " + i;
                ThreadAssignment target = targets.get(i);
                assertThat(target.memoryNode()).as(what).isEqualTo(planned.get(i).memoryNode());
                if (target.memoryNode().isPresent()) {
                    NumaNode node = machine.topology().numaNodes().stream().filter(candidate -> candidate.id() == target.memoryNode().getAsInt()).findFirst().orElseThrow();
                    assertThat(node.cpus().containsAll(target.cpus())).as("%s: CPUs %s on node %d (%s)", what, target.cpus(), node.id(), node.cpus()).isTrue();
                }
            }
        }
    }

    /**
     * Memory of another kind than dram is not reached by first touch: the node runtime names the nodes core binds for
     * the node's chiplets, the same nodes plan prints for a worker on each chiplet; nothing where memory is not bound.
     */
    @Test
    void theNodesNamedForAnotherMemoryKindAreThosePlanPrints()
    {
        int named = 0;
        for (MachineShare each : SHARES) {
            Machine machine = each.machine();
            PlacementDomain share = each.share();
            for (MemoryKind kind : List.of(MemoryKind.DRAM, MemoryKind.HBM, MemoryKind.CXL_PMEM)) {
                MemoryBinding memory = MemoryBinding.of(machine.topology(), true, kind);
                Optional<String> advice = MemoryAdvice.of(memory, kind, share.memoryNodesToBind(memory));
                // One worker per chiplet under wicp-mixed: plan's nodes for all of this node's chiplets.
                SortedSet<Integer> printed = new TreeSet<>();
                plan(machine, Policy.WICP_MIXED, Math.max(1, share.chiplets().size()), kind.jsonName())
                        .forEach(worker -> worker.memoryNode().ifPresent(printed::add));
                if (kind == MemoryKind.DRAM || !memory.binds()) {
                    assertThat(advice).as("%s %s", machine, kind).isEmpty();
                }
                else {
                    assertThat(advice).as("%s %s", machine, kind).hasValueSatisfying(text -> assertThat(text).contains("NUMA nodes for this node's chiplets are " + printed));
                    named++;
                }
                assertThat(MemoryAdvice.of(MemoryBinding.of(machine.topology(), false, kind), kind, share.memoryNodesToBind(memory))).isEmpty();
            }
        }
        // The HBM/CXL snapshots and the multi-node machines name nodes.
        assertThat(named).isGreaterThan(0);
    }

    /**
     * The placement Trino's node runtime starts with: its own setup ({@link NodeSetup#of}) from the catalog's
     * defaults (memory.bind on, dram, every chiplet) for {@code policy}, leased host-wide as the runtime leases.
     */
    private static ThreadPlacement nodePlacement(Machine machine, Policy policy)
    {
        Path leases = unpacked.resolve("leases");
        PlacementSettings config = ((TrinoSettings.Valid) TrinoSettings.parse(Map.of(TrinoSettings.POLICY, policy.cliName(),
                TrinoSettings.LEASE_DIR, leases.toString()))).settings();
        NodeSetup setup = NodeSetup.of(config, machine.topology(), machine.topology().allowed());
        try (ChipletLock lock = ChipletLock.acquire(config.leaseDirectory(), setup.share(), setup.leases().chiplets(), setup.memory())) {
            return setup.placement(lock.share());
        }
    }

    private static List<ThreadAssignment> targets(ThreadPlacement placement, int threads)
    {
        List<Integer> tids = IntStream.range(0, threads).map(i -> 1000 + 3 * i).boxed().toList();
        if (placement.policy() == Policy.ADAPTIVE) {
            int[] spreads = new int[threads];
            java.util.Arrays.fill(spreads, 1);
            return placement.placeAdaptive(tids, spreads);
        }
        return placement.place(tids, Map.of());
    }

    private record PlannedWorker(OptionalInt chiplet, Optional<CpuSet> cpus, OptionalInt memoryNode) {}

    private static List<PlannedWorker> plan(Machine machine, Policy policy, int workers, String memoryKind)
    {
        List<String> args = new ArrayList<>(List.of("--policy", policy.cliName(), "--workers", Integer.toString(workers), "--memory-kind", memoryKind, "--format", "json"));
        String output = PlanRun.output(machine.topology(), args.toArray(String[]::new));
        List<PlannedWorker> workersOut = new ArrayList<>();
        try {
            for (JsonNode worker : JSON.readTree(output).get("workers")) {
                workersOut.add(new PlannedWorker(
                        worker.has("chiplet") ? OptionalInt.of(worker.get("chiplet").intValue()) : OptionalInt.empty(),
                        worker.has("cpus") ? Optional.of(CpuSet.parseList(worker.get("cpus").textValue())) : Optional.empty(),
                        worker.has("memoryNode") ? OptionalInt.of(worker.get("memoryNode").intValue()) : OptionalInt.empty()));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("chiplet plan printed no JSON: " + output, e);
        }
        return workersOut;
    }
}
