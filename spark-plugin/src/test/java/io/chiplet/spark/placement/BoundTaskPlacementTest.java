package io.chiplet.spark.placement;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.slots.FakeSlotBinder;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spark's task events translated into core's slot pool: what the pool does with them (slot order, binding, cpuset
 * changes) is tested in core ({@code io.chiplet.slots.SlotPoolTest}).
 */
class BoundTaskPlacementTest
{
    private static final long MIB = 1L << 20;
    // Two chiplets of four cores, CPUs 0-3 and 4-7, each its own NUMA node.
    private static final Topology TWO_NODES = SyntheticTopologies.uniform("test", 1, 2, 4, 1, 32 * MIB, 2);
    private static final CpuSet ALL = CpuSet.range(0, 7);

    private final FakeSlotBinder binder = new FakeSlotBinder(ALL);
    private final BoundTaskPlacement placement = BoundTaskPlacement.following(
            PlacementPlanner.targets(PlacementDomain.of(TWO_NODES), Policy.WICP_MIXED, 4, MemoryBinding.of(TWO_NODES, true, MemoryKind.DRAM)),
            TWO_NODES.chiplets().stream().map(Chiplet::id).toList(), binder);

    @Test
    void aTaskTakesASlotWithItsStageAndItsEndFreesItAndRestoresTheThread()
    {
        TaskPlacement.Handle handle = placement.onTaskStart(new TaskPlacement.TaskIdentity(5, 0, 100));
        int slot = ((BoundTaskPlacement.Placed) handle).slot();
        assertThat(placement.pool().workIn(slot)).isEqualTo(5);
        assertThat(handle.chiplet()).hasValue(0);
        assertThat(handle.cpus()).hasValue(CpuSet.range(0, 3));
        assertThat(binder.mask()).isEqualTo(CpuSet.range(0, 3));

        placement.onTaskEnd(handle);
        assertThat(placement.pool().workIn(slot)).isEqualTo(-1);
        assertThat(binder.mask()).isEqualTo(ALL);
        assertThat(binder.restored()).isEqualTo(1);
    }

    @Test
    void aFailedBindReachesTheExecutorPluginAndLeavesTheSlotFree()
    {
        binder.failNext(new IllegalArgumentException("EPERM"));
        // The executor plugin's fail-open guard catches it: the task runs unplaced.
        assertThatThrownBy(() -> placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 0, 1))).hasMessage("EPERM");
        for (int slot = 0; slot < placement.pool().slots(); slot++) {
            assertThat(placement.pool().workIn(slot)).isEqualTo(-1);
        }
    }

    @Test
    void aCpusetChangeMovesRunningTasksThroughThePool()
            throws Exception
    {
        TaskPlacement.Handle first = placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 0, 1));
        TaskPlacement.Handle second;
        try (ExecutorService other = Executors.newSingleThreadExecutor()) {
            second = other.submit(() -> placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 1, 2))).get(10, TimeUnit.SECONDS);
        }
        placement.allowedCpusChanged(CpuSet.range(4, 7));
        assertThat(binder.followed()).hasSize(2).allSatisfy((tid, cpus) -> assertThat(cpus).isEqualTo(CpuSet.range(4, 7)));
        assertThat(placement.table().slots()).allSatisfy(slot -> assertThat(slot.cpus()).hasValue(CpuSet.range(4, 7)));
        assertThat(placement.targets().orElseThrow().share().ids()).containsExactly(1);
        assertThat(second.chiplet()).hasValue(1);
        // Later tasks go to the new CPUs.
        placement.onTaskEnd(first);
        assertThat(placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 2, 3)).chiplet()).hasValue(1);
    }
}
