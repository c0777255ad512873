package io.chiplet.spark.placement;

import io.chiplet.placement.HybridRouting;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.slots.FakeSlotBinder;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.HwlocXmlTopologyReader;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Kind-aware routing of Spark tasks on the hybrid laptop snapshot (Raptor Lake: 6 P-cores with 2 threads, 8 E-cores). */
class HybridTaskRoutingTest
{
    private static final Topology LAPTOP = laptop();
    private static final CpuSet PERFORMANCE = CpuSet.range(0, 11);
    private static final CpuSet EFFICIENCY = CpuSet.range(12, 19);
    private static final int SLOTS = 20;

    private final FakeSlotBinder binder = new FakeSlotBinder(LAPTOP.allowed());

    @Test
    void theSnapshotIsHybrid()
    {
        HybridRouting routing = HybridRouting.of(LAPTOP, LAPTOP.allowed());
        assertThat(routing.cpus(HybridRouting.CoreClass.PERFORMANCE)).isEqualTo(PERFORMANCE);
        assertThat(routing.cpus(HybridRouting.CoreClass.EFFICIENCY)).isEqualTo(EFFICIENCY);
        // one L3: one chiplet, every slot on all 20 CPUs
        assertThat(placement().table().slots()).allSatisfy(slot -> assertThat(slot.cpus()).hasValue(LAPTOP.allowed()));
    }

    @Test
    void scansGoToEfficiencyCoresAndShuffleReadsToPerformanceCoresEachOnTheOtherWhenItsOwnIsFull()
    {
        BoundTaskPlacement placement = routed();
        // Stage 1 has no finished task yet: compute, performance cores.
        TaskPlacement.Handle first = placement.onTaskStart(task(1, 0));
        assertThat(first.cpus()).contains(PERFORMANCE);
        // A task of stage 2 read only its source, one of stage 3 a shuffle.
        finish(placement, placement.onTaskStart(task(2, 0)), 0, 4096);
        finish(placement, placement.onTaskStart(task(3, 0)), 4096, 4096);

        List<TaskPlacement.Handle> scans = new ArrayList<>();
        for (int partition = 1; partition <= 8; partition++) {
            scans.add(placement.onTaskStart(task(2, partition)));
        }
        assertThat(scans).allSatisfy(scan -> assertThat(scan.cpus()).contains(EFFICIENCY));
        // Every efficiency CPU is busy: the ninth scan takes a performance CPU (the report's fallback).
        TaskPlacement.Handle ninth = placement.onTaskStart(task(2, 9));
        assertThat(ninth.cpus()).contains(PERFORMANCE);
        assertThat(placement.onTaskStart(task(3, 1)).cpus()).contains(PERFORMANCE);

        // One scan ends: its efficiency CPU is free again for the next scan.
        placement.onTaskEnd(scans.remove(0));
        assertThat(placement.onTaskStart(task(2, 10)).cpus()).contains(EFFICIENCY);
        // The thread's mask is restored exactly at each end.
        placement.onTaskEnd(first);
        assertThat(binder.bound()).extracting(FakeSlotBinder.Bound::cpus).allSatisfy(cpus -> assertThat(cpus).isIn(PERFORMANCE, EFFICIENCY));
    }

    @Test
    void withoutRoutingTasksRunOnTheirWholeSlot()
    {
        BoundTaskPlacement placement = placement();
        finish(placement, placement.onTaskStart(task(2, 0)), 0, 4096);
        assertThat(placement.onTaskStart(task(2, 1)).cpus()).contains(LAPTOP.allowed());
    }

    private BoundTaskPlacement routed()
    {
        BoundTaskPlacement placement = placement();
        placement.pool().routeByKind(allowed -> HybridRouting.of(LAPTOP, allowed), LAPTOP.allowed());
        return placement;
    }

    private BoundTaskPlacement placement()
    {
        WorkerPlacements targets = PlacementPlanner.targets(PlacementDomain.of(LAPTOP), Policy.WICP_MIXED, SLOTS, MemoryBinding.off(LAPTOP));
        return BoundTaskPlacement.following(targets, LAPTOP.chiplets().stream().map(Chiplet::id).toList(), binder);
    }

    private static void finish(BoundTaskPlacement placement, TaskPlacement.Handle handle, long shuffleBytes, long inputBytes)
    {
        placement.onTaskEnd(handle);
        placement.taskRead(handle, shuffleBytes, inputBytes);
    }

    private static TaskPlacement.TaskIdentity task(int stage, int partition)
    {
        return new TaskPlacement.TaskIdentity(stage, partition, stage * 1000L + partition);
    }

    private static Topology laptop()
    {
        try {
            return new HwlocXmlTopologyReader(Path.of(HybridTaskRoutingTest.class.getResource("/hwloc-xml/20em64t-hybrid-1p6c2t+2ca4co1t.xml").toURI())).read(0);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
