package io.chiplet.slots;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The slot pool with a recording binder: which slot each unit takes, what is bound and restored, cpuset changes. */
class SlotPoolTest
{
    private static final long MIB = 1L << 20;
    // Two chiplets of four cores, CPUs 0-3 and 4-7, each its own NUMA node.
    private static final Topology TWO_NODES = SyntheticTopologies.uniform("test", 1, 2, 4, 1, 32 * MIB, 2);
    private static final CpuSet ALL = CpuSet.range(0, 7);

    private final FakeSlotBinder binder = new FakeSlotBinder(ALL);

    @Test
    void concurrentTasksSpreadEvenlyOverTheChiplets()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 8, true);
        List<SlotPool.Lease> running = new ArrayList<>();
        for (int task = 0; task < 6; task++) {
            running.add(placement.acquire(stage(task)));
        }
        assertThat(running).extracting(handle -> handle.chiplet().getAsInt()).containsExactly(0, 1, 0, 1, 0, 1);
        // Every running task has a slot of its own, and runs on its whole chiplet.
        assertThat(running).extracting(handle -> handle.slot()).doesNotHaveDuplicates();
        assertThat(binder.bound()).allSatisfy(bound -> assertThat(bound.cpus()).isIn(CpuSet.range(0, 3), CpuSet.range(4, 7)));

        // Two tasks of chiplet 0 end: the next two go there, the less busy chiplet.
        end(placement, running.remove(0));
        end(placement, running.remove(1));
        assertThat(placement.acquire(stage(6)).chiplet()).hasValue(0);
        assertThat(placement.acquire(stage(7)).chiplet()).hasValue(0);
    }

    @Test
    void aThreadKeepsItsSlotWhileThatIsAsGoodAsAny()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 8, true);
        List<CpuSet> cpus = new ArrayList<>();
        for (int task = 0; task < 10; task++) {
            end(placement, placement.acquire(stage(task)));
            cpus.add(binder.bound().getLast().cpus());
        }
        // Restoring did not move the thread: its next task takes the CPUs it still runs on, no migration.
        assertThat(cpus).containsOnly(cpus.getFirst());

        // With its chiplet busier than another, it moves.
        SlotPool.Lease other = onOtherThread(() -> placement.acquire(stage(10)));
        SlotPool.Lease mine = placement.acquire(stage(11));
        assertThat(mine.chiplet()).isNotEqualTo(other.chiplet());
    }

    @Test
    void tasksOfNewThreadsOneAfterAnotherAlternateChiplets()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 8, true);
        List<Integer> chiplets = new ArrayList<>();
        for (int task = 0; task < 10; task++) {
            int id = task;
            chiplets.add(onOtherThread(() -> {
                SlotPool.Lease handle = placement.acquire(stage(id));
                end(placement, handle);
                return handle;
            }).chiplet().getAsInt());
        }
        assertThat(chiplets).containsExactly(0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
    }

    @Test
    void localPolicyFillsOneChipletFirst()
    {
        SlotPool placement = placement(Policy.WICP_LOCAL, 8, true);
        List<Integer> chiplets = new ArrayList<>();
        for (int task = 0; task < 5; task++) {
            chiplets.add(placement.acquire(stage(task)).chiplet().getAsInt());
        }
        assertThat(chiplets).containsExactly(0, 0, 0, 0, 1);
        assertThat(binder.bound()).extracting(FakeSlotBinder.Bound::cpus)
                .containsExactly(CpuSet.range(0, 3), CpuSet.range(0, 3), CpuSet.range(0, 3), CpuSet.range(0, 3), CpuSet.range(4, 7));
    }

    @Test
    void chipletPoliciesPinToTheWholeChipletAndWicToItsCore()
    {
        assertThat(table(TWO_NODES, Policy.WICP_LOCAL, 3, false).slots()).extracting(SlotTable.Slot::cpus).containsOnly(Optional.of(CpuSet.range(0, 3)));
        assertThat(table(TWO_NODES, Policy.WIC, 3, false).slots()).extracting(SlotTable.Slot::cpus)
                .containsExactly(Optional.of(CpuSet.of(0)), Optional.of(CpuSet.of(1)), Optional.of(CpuSet.of(2)));
        // A chiplet partly outside the process: only its allowed CPUs.
        PlacementDomain narrowed = PlacementDomain.ofProcess(TWO_NODES, CpuSet.of(1, 2, 5));
        assertThat(SlotTable.of(PlacementPlanner.targets(narrowed, Policy.WICP_MIXED, 2, MemoryBinding.of(TWO_NODES, false, MemoryKind.DRAM))).slots()).extracting(SlotTable.Slot::cpus)
                .containsExactly(Optional.of(CpuSet.of(1, 2)), Optional.of(CpuSet.of(5)));
    }

    @Test
    void pinsToThePlannedCpusWithMemoryOnTheChipletsNodeAndRestoresExactly()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 2, true);

        SlotPool.Lease first = placement.acquire(stage(0));
        assertThat(binder.mask()).isEqualTo(CpuSet.range(0, 3));
        assertThat(binder.memory()).hasValue(0);

        // The first still runs: the next goes to the other chiplet, with the other node's memory.
        SlotPool.Lease second = placement.acquire(stage(1));
        assertThat(binder.mask()).isEqualTo(TWO_NODES.chiplet(1).orElseThrow().cpus());
        assertThat(binder.memory()).hasValue(1);

        // Each end restores exactly what its start found.
        end(placement, second);
        assertThat(binder.mask()).isEqualTo(TWO_NODES.chiplet(0).orElseThrow().cpus());
        assertThat(binder.memory()).hasValue(0);
        end(placement, first);
        assertThat(binder.mask()).isEqualTo(ALL);
        assertThat(binder.memory()).isEmpty();
        assertThat(binder.restored()).isEqualTo(2);
    }

    @Test
    void memoryStaysAloneWhenBindingIsOffOrTheNodeIsNotUsableHere()
    {
        assertThat(table(TWO_NODES, Policy.WICP_MIXED, 2, false).slots()).allSatisfy(slot -> assertThat(slot.memoryNode()).isEmpty());
        // cpuset.mems (or Mems_allowed_list) names node 0 only: this process may allocate from node 0 only, so there
        // is no choice to make and memory stays alone (core's "more than one node" rule).
        assertThat(table(TWO_NODES.withAllowedMemoryNodes(Set.of(0)), Policy.WICP_MIXED, 2, true).slots()).extracting(SlotTable.Slot::memoryNode)
                .containsExactly(OptionalInt.empty(), OptionalInt.empty());
        // wim binds nothing: neither CPUs nor memory.
        assertThat(table(TWO_NODES, Policy.WIM, 2, true).slots()).containsOnly(new SlotTable.Slot(Optional.empty(), OptionalInt.empty(), OptionalInt.empty()));
    }

    @Test
    void failedBindLeavesTheSlotFree()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 2, true);
        binder.failNext(new IllegalArgumentException("EPERM"));
        assertThatThrownBy(() -> placement.acquire(stage(0))).hasMessage("EPERM");
        SlotPool.Lease first = placement.acquire(stage(1));
        SlotPool.Lease second = placement.acquire(stage(2));
        assertThat(List.of(first.chiplet().getAsInt(), second.chiplet().getAsInt())).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void aPublishedTableMovesLaterTasksOnly()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 2, false);
        SlotPool.Lease running = placement.acquire(stage(0));
        CpuSet before = binder.bound().getFirst().cpus();

        placement.publish(new SlotTable(List.of(
                new SlotTable.Slot(Optional.of(CpuSet.of(5)), OptionalInt.of(1), OptionalInt.empty()),
                new SlotTable.Slot(Optional.of(CpuSet.of(6)), OptionalInt.of(1), OptionalInt.empty()))));
        assertThat(binder.mask()).isEqualTo(before);
        SlotPool.Lease later = placement.acquire(stage(1));
        assertThat(later.chiplet()).hasValue(1);
        assertThat(binder.bound().getLast().cpus()).isIn(CpuSet.of(5), CpuSet.of(6));
        end(placement, later);
        end(placement, running);

        assertThatThrownBy(() -> placement.publish(new SlotTable(List.of(new SlotTable.Slot(Optional.of(CpuSet.of(5)), OptionalInt.of(1), OptionalInt.empty())))))
                .hasMessageContaining("expected 2 slots");
        assertThatThrownBy(() -> placement.publish(new SlotTable(List.of(
                new SlotTable.Slot(Optional.of(CpuSet.of(5)), OptionalInt.of(9), OptionalInt.empty()),
                new SlotTable.Slot(Optional.of(CpuSet.of(6)), OptionalInt.of(1), OptionalInt.empty())))))
                .hasMessageContaining("not one of this process's");
    }

    @Test
    void manyThreadsAtOnceNeverShareASlotAndEveryThreadIsRestored()
            throws Exception
    {
        int threads = 8;
        SlotPool placement = placement(Policy.WICP_MIXED, threads, true);
        CyclicBarrier allStarted = new CyclicBarrier(threads);
        CountDownLatch checked = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<CpuSet>> masksAfter = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int id = thread;
                masksAfter.add(pool.submit(() -> {
                    SlotPool.Lease handle = placement.acquire(stage(id));
                    allStarted.await(10, TimeUnit.SECONDS);
                    checked.await(10, TimeUnit.SECONDS);
                    placement.release(handle);
                    return binder.mask();
                }));
            }
            while (binder.bound().size() < threads) {
                Thread.onSpinWait();
            }
            assertThat(binder.bound()).extracting(bound -> TWO_NODES.chipletOf(bound.cpus().first()).map(Chiplet::id).orElseThrow())
                    .filteredOn(chiplet -> chiplet == 0).hasSize(threads / 2);
            checked.countDown();
            for (Future<CpuSet> mask : masksAfter) {
                assertThat(mask.get(10, TimeUnit.SECONDS)).isEqualTo(ALL);
            }
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void everyPolicyYieldsOneSlotPerTaskSlotOnAllowedCpus()
    {
        for (Policy policy : Policy.values()) {
            String name = policy.cliName();
            assertThat(table(TWO_NODES, policy, 3, true).slots()).as(name).hasSize(3)
                    .allSatisfy(slot -> assertThat(slot.cpus().isEmpty() == (policy == Policy.WIM)).isTrue())
                    .allSatisfy(slot -> assertThat(ALL.containsAll(slot.cpus().orElse(CpuSet.empty()))).isTrue());
        }
    }

    @Test
    void wimBindsNoTaskThreadAndRestoresNothing()
    {
        SlotPool placement = placement(Policy.WIM, 2, true);
        SlotPool.Lease first = placement.acquire(stage(0));
        SlotPool.Lease second = onOtherThread(() -> placement.acquire(stage(1)));
        assertThat(first.cpus()).isEmpty();
        assertThat(first.chiplet()).isEmpty();
        assertThat(binder.bound()).isEmpty();
        assertThat(binder.mask()).isEqualTo(ALL);
        end(placement, first);
        placement.release(second);
        assertThat(binder.restored()).isZero();
        // A cpuset change moves nothing either.
        placement.allowedCpusChanged(CpuSet.range(4, 7));
        assertThat(binder.followed()).isEmpty();
        assertThat(placement.table().slots()).allSatisfy(slot -> assertThat(slot.binds()).isFalse());
    }

    @Test
    void aNarrowedCpusetMovesRunningTasksAndLaterTasksThere()
    {
        SlotPool placement = placement(Policy.WICP_MIXED, 8, true);
        SlotPool.Lease first = placement.acquire(stage(0));
        SlotPool.Lease second = onOtherThread(() -> placement.acquire(stage(1)));
        assertThat(List.of(first.chiplet().getAsInt(), second.chiplet().getAsInt())).containsExactlyInAnyOrder(0, 1);

        // The kubelet leaves the executor chiplet 1 only.
        placement.allowedCpusChanged(CpuSet.range(4, 7));

        // Both running tasks' threads are moved onto chiplet 1, and the binder gives threads back their masks within it.
        int firstTid = first.binding().tid();
        int secondTid = second.binding().tid();
        assertThat(binder.followed()).containsOnlyKeys(firstTid, secondTid).allSatisfy((tid, cpus) -> assertThat(cpus).isEqualTo(CpuSet.range(4, 7)));
        assertThat(binder.limit()).isEqualTo(CpuSet.range(4, 7));
        // Every slot is on chiplet 1 now: later tasks go there.
        assertThat(placement.table().slots()).allSatisfy(slot -> assertThat(slot.cpus()).hasValue(CpuSet.range(4, 7)));
        // Core rescoped the share and planned the same policy in it: the node share now holds chiplet 1 alone.
        assertThat(placement.targets().orElseThrow().share().ids()).containsExactly(1);
        end(placement, first);
        assertThat(placement.acquire(stage(2)).chiplet()).hasValue(1);
    }

    private SlotPool placement(Policy policy, int slots, boolean bindMemory)
    {
        return SlotPool.following(targets(TWO_NODES, policy, slots, bindMemory), TWO_NODES.chiplets().stream().map(Chiplet::id).toList(), binder);
    }

    private static WorkerPlacements targets(Topology topology, Policy policy, int slots, boolean bindMemory)
    {
        return PlacementPlanner.targets(PlacementDomain.of(topology), policy, slots, MemoryBinding.of(topology, bindMemory, MemoryKind.DRAM));
    }

    private static SlotTable table(Topology topology, Policy policy, int slots, boolean bindMemory)
    {
        return SlotTable.of(targets(topology, policy, slots, bindMemory));
    }

    private static <T> T onOtherThread(Callable<T> action)
    {
        try (ExecutorService thread = Executors.newSingleThreadExecutor()) {
            return thread.submit(action).get(10, TimeUnit.SECONDS);
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The work group of a unit: which does not matter to the pool without hybrid routing. */
    private static int stage(int unit)
    {
        return 1;
    }

    private static void end(SlotPool placement, SlotPool.Lease handle)
    {
        placement.release(handle);
    }
}
