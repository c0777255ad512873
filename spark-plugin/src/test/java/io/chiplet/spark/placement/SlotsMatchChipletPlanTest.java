package io.chiplet.spark.placement;

import io.chiplet.binding.RecordingProcessBinder;
import io.chiplet.cli.PlanRun;
import io.chiplet.discovery.BundledMachines.Machine;
import io.chiplet.discovery.BundledMachines;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.slots.FakeSlotBinder;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue #24's "plan prints what runs", for Spark's task mode: on every bundled machine (core's hwloc XMLs and sysfs
 * snapshots), for every policy and several slot counts, the task slots the plugin binds (its placement run with a
 * recording binder, one task per slot) are exactly the workers {@code chiplet plan --format json} prints for the same
 * machine, policy and worker count: each slot's CPUs (none under {@code wim}), chiplet and memory node. Executor mode's
 * whole process is compared with {@code plan --workers 1}.
 */
class SlotsMatchChipletPlanTest
{
    private static final List<Machine> MACHINES = new ArrayList<>();
    @TempDir
    static Path unpacked;

    private record Worker(Optional<CpuSet> cpus, OptionalInt chiplet, OptionalInt memoryNode) {}

    @BeforeAll
    static void loadMachines()
            throws IOException
    {
        MACHINES.addAll(BundledMachines.load(unpacked));
    }

    @Test
    void theBundledMachinesAreAllHere()
    {
        // 7 hwloc XMLs and the snapshots: a fixture lost from core's test jar must not shrink this test silently.
        assertThat(MACHINES.stream().filter(Machine::isHwlocXml)).hasSizeGreaterThanOrEqualTo(7);
        assertThat(MACHINES.stream().filter(machine -> !machine.isHwlocXml())).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void everySlotBindsWhatChipletPlanPrints()
    {
        int compared = 0;
        for (Machine machine : MACHINES) {
            if (machine.topology().allowed().isEmpty()) {
                continue;
            }
            int chiplets = Math.max(1, PlacementDomain.of(machine.topology()).chiplets().size());
            Set<Integer> slotCounts = new TreeSet<>(List.of(1, 3, chiplets, chiplets + 1, machine.topology().allowed().size()));
            for (Policy policy : Policy.values()) {
                for (int slots : slotCounts) {
                    String what = machine.name() + ", " + policy.cliName() + ", " + slots + " slots";
                    assertThat(sparkSlots(machine.topology(), policy, slots)).as(what).isEqualTo(plan(machine, policy, slots));
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(500);
    }

    /**
     * Executor mode: the whole executor process is one worker. Under {@code wim} it binds nothing, as {@code plan --policy
     * wim --workers 1} prints; under every other policy it binds the whole chiplet it leased (the first free one, here
     * all are free) and that chiplet's memory node: {@code plan --workers 1}'s worker 0 under the chiplet policies, and
     * {@code plan --policy wicp-local --workers 1}'s under {@code win} and {@code wic}, which a whole process does not
     * follow (core's {@code HostDivision.processPlacement}).
     */
    @Test
    void anExecutorProcessBindsWhatChipletPlanPrintsForOneWorker()
    {
        int compared = 0;
        for (Machine machine : MACHINES) {
            Topology topology = machine.topology();
            if (topology.allowed().isEmpty() || PlacementDomain.of(topology).chiplets().isEmpty()) {
                continue;
            }
            for (Policy policy : Policy.values()) {
                Policy planned = policy == Policy.WIN || policy == Policy.WIC ? Policy.WICP_LOCAL : policy;
                String what = machine.name() + ", executor mode, " + policy.cliName();
                assertThat(List.of(executorProcess(topology, policy, unpacked.resolve("leases-" + compared)))).as(what)
                        .isEqualTo(plan(machine, planned, 1));
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(100);
    }

    /** What executor mode binds for the whole process, through a binder that records instead of binding. */
    private static Worker executorProcess(Topology topology, Policy policy, Path leaseDir)
    {
        PlacementSettings settings = ((SparkSettings.Valid) SparkSettings.parse(Map.of(SparkSettings.POLICY, policy.cliName(),
                SparkSettings.MODE, "executor", SparkSettings.LEASE_DIR, leaseDir.toString()))).settings();
        RecordingProcessBinder binder = new RecordingProcessBinder(topology.allowed());
        try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings, topology, binder)) {
            OptionalInt chiplet = placement.onTaskStart(new TaskPlacement.TaskIdentity(0, 0, 0)).chiplet();
            List<Map.Entry<CpuSet, OptionalInt>> bound = binder.bound();
            assertThat(bound).hasSizeLessThanOrEqualTo(1);
            return bound.isEmpty() ? new Worker(Optional.empty(), chiplet, OptionalInt.empty()) : new Worker(Optional.of(bound.getFirst().getKey()), chiplet, bound.getFirst().getValue());
        }
    }

    /** What the task placement binds in each slot: one task started per slot, none ended, through a recording binder. */
    private static List<Worker> sparkSlots(Topology topology, Policy policy, int slots)
    {
        PlacementSettings settings = ((SparkSettings.Valid) SparkSettings.parse(Map.of(SparkSettings.POLICY, policy.cliName()))).settings();
        FakeSlotBinder binder = new FakeSlotBinder(topology.allowed());
        BoundTaskPlacement placement = BoundTaskPlacement.following(BoundTaskPlacement.targets(topology, settings, slots),
                topology.chiplets().stream().map(Chiplet::id).toList(), binder);
        Worker[] bySlot = new Worker[slots];
        for (int task = 0; task < slots; task++) {
            int before = binder.bound().size();
            BoundTaskPlacement.Placed placed = (BoundTaskPlacement.Placed) placement.onTaskStart(new TaskPlacement.TaskIdentity(1, task, task));
            assertThat(bySlot[placed.slot()]).as("slot %d taken twice", placed.slot()).isNull();
            if (binder.bound().size() == before) {
                // Nothing bound: the slot's memory stays alone too.
                assertThat(placed.cpus()).isEmpty();
                bySlot[placed.slot()] = new Worker(Optional.empty(), placed.chiplet(), OptionalInt.empty());
            }
            else {
                FakeSlotBinder.Bound bound = binder.bound().getLast();
                bySlot[placed.slot()] = new Worker(Optional.of(bound.cpus()), placed.chiplet(), bound.memoryNode());
            }
        }
        return List.of(bySlot);
    }

    /** {@code chiplet plan --format json} for the machine, run in-process as a user runs it. */
    private static List<Worker> plan(Machine machine, Policy policy, int workers)
    {
        List<String> args = new ArrayList<>(machine.source());
        args.addAll(List.of("--policy", policy.cliName(), "--workers", Integer.toString(workers)));
        return PlanRun.workers(args.toArray(String[]::new)).stream()
                .map(worker -> new Worker(worker.cpus(), worker.chiplet(), worker.memoryNode()))
                .toList();
    }
}
