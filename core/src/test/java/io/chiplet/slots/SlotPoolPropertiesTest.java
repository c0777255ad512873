package io.chiplet.slots;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any sequence of acquires and releases (on one thread; the pool keeps no per-thread state but the last slot): no slot
 * is handed out twice while free ones exist, every release frees its slot and restores its thread, and the slot taken is
 * the one the policy's order names.
 */
class SlotPoolPropertiesTest
{
    // Four chiplets of two cores (CPUs 0-7), each its own NUMA node.
    private static final Topology FOUR_CHIPLETS = SyntheticTopologies.uniform("test", 1, 4, 2, 1, 32L << 20, 4);

    enum Bound
    {
        WICP_LOCAL(Policy.WICP_LOCAL), WIC(Policy.WIC), WICP_MIXED(Policy.WICP_MIXED), ADAPTIVE(Policy.ADAPTIVE), WIN(Policy.WIN), WIM(Policy.WIM);

        final Policy policy;

        Bound(Policy policy)
        {
            this.policy = policy;
        }
    }

    /**
     * @param operations a non-negative value acquires (while a slot is free), a negative one releases the held lease it
     *         names (modulo how many are held)
     */
    @Property(tries = 300)
    void noSlotTwiceEveryReleaseFreesAndRestores(@ForAll Bound bound, @ForAll @IntRange(min = 1, max = 8) int slots,
            @ForAll @Size(max = 60) List<@IntRange(min = -50, max = 50) Integer> operations)
    {
        FakeSlotBinder binder = new FakeSlotBinder(CpuSet.range(0, 7));
        SlotPool pool = pool(bound.policy, slots, binder);
        List<SlotPool.Lease> held = new ArrayList<>();
        for (int operation : operations) {
            if (operation >= 0 && held.size() < slots) {
                SlotPool.Lease lease = pool.acquire(operation);
                assertThat(held).extracting(SlotPool.Lease::slot).doesNotContain(lease.slot());
                assertThat(pool.workIn(lease.slot())).isEqualTo(operation);
                held.add(lease);
            }
            else if (!held.isEmpty()) {
                SlotPool.Lease lease = held.remove(Math.floorMod(operation, held.size()));
                pool.release(lease);
                assertThat(pool.workIn(lease.slot())).isEqualTo(-1);
            }
        }
        held.forEach(pool::release);
        assertThat(IntStream.range(0, slots).map(pool::workIn)).containsOnly(-1);
        // Every bind was undone (exact restores are SlotPoolTest's: a real thread runs one unit at a time, and this one
        // holds several and releases them in any order).
        assertThat(binder.restored()).isEqualTo(binder.bound().size());
        // With every slot free again, as many units as slots take every slot once.
        List<SlotPool.Lease> again = IntStream.range(0, slots).mapToObj(unit -> pool.acquire(0)).toList();
        assertThat(again).extracting(SlotPool.Lease::slot).doesNotHaveDuplicates().hasSize(slots);
    }

    @Property(tries = 300)
    void theSlotTakenFollowsThePolicysOrder(@ForAll Bound bound, @ForAll @IntRange(min = 1, max = 8) int slots,
            @ForAll @Size(max = 60) List<@IntRange(min = -50, max = 50) Integer> operations)
    {
        SlotPool pool = pool(bound.policy, slots, new FakeSlotBinder(CpuSet.range(0, 7)));
        SlotTable table = pool.table();
        List<SlotPool.Lease> held = new ArrayList<>();
        for (int operation : operations) {
            if (operation >= 0 && held.size() < slots) {
                List<Integer> free = IntStream.range(0, slots).filter(slot -> held.stream().noneMatch(lease -> lease.slot() == slot)).boxed().toList();
                SlotPool.Lease lease = pool.acquire(0);
                switch (bound.policy.slotOrder()) {
                    // The first free slot in plan order.
                    case PLAN_ORDER -> assertThat(lease.slot()).isEqualTo(free.getFirst());
                    // A free slot on a chiplet running no more units than any other chiplet with a free slot.
                    case LEAST_BUSY_CHIPLET -> {
                        Map<Object, Long> busy = new HashMap<>();
                        held.forEach(other -> busy.merge(group(table, other.slot()), 1L, Long::sum));
                        long fewest = free.stream().mapToLong(slot -> busy.getOrDefault(group(table, slot), 0L)).min().orElseThrow();
                        assertThat(free).contains(lease.slot());
                        assertThat(busy.getOrDefault(group(table, lease.slot()), 0L)).isEqualTo(fewest);
                    }
                }
                held.add(lease);
            }
            else if (!held.isEmpty()) {
                pool.release(held.remove(Math.floorMod(operation, held.size())));
            }
        }
    }

    /** The group a slot counts in: its chiplet, or its CPUs where it has no single chiplet. */
    private static Object group(SlotTable table, int slot)
    {
        SlotTable.Slot entry = table.slot(slot);
        return entry.chiplet().isPresent() ? (Object) entry.chiplet().getAsInt() : entry.cpus();
    }

    private static SlotPool pool(Policy policy, int slots, FakeSlotBinder binder)
    {
        return SlotPool.following(PlacementPlanner.targets(PlacementDomain.of(FOUR_CHIPLETS), policy, slots, MemoryBinding.of(FOUR_CHIPLETS, true, MemoryKind.DRAM)),
                FOUR_CHIPLETS.chiplets().stream().map(Chiplet::id).toList(), binder);
    }
}
