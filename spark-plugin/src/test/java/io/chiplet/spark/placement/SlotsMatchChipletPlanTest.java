package io.chiplet.spark.placement;

import io.chiplet.cli.PlanRun;
import io.chiplet.discovery.BundledMachines;
import io.chiplet.discovery.BundledMachines.Machine;
import io.chiplet.placement.NodeShare;
import io.chiplet.placement.Policy;
import io.chiplet.spark.settings.ChipletSettings;
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
 * machine, policy and worker count: each slot's CPUs (none under {@code wim}), chiplet and memory node.
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
            int chiplets = Math.max(1, NodeShare.of(machine.topology()).chiplets().size());
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

    /** What the task placement binds in each slot: one task started per slot, none ended, through a recording binder. */
    private static List<Worker> sparkSlots(Topology topology, Policy policy, int slots)
    {
        ChipletSettings settings = ((ChipletSettings.Valid) ChipletSettings.parse(Map.of(ChipletSettings.POLICY, policy.cliName()))).settings();
        FakeTaskThreadBinder binder = new FakeTaskThreadBinder(topology.allowed());
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
                FakeTaskThreadBinder.Bound bound = binder.bound().getLast();
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
