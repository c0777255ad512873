package io.chiplet.trino.placement;

import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThreadPlacementTest
{
    // 1 package, 4 chiplets of 2 cores x 2 threads: chiplet c holds CPUs {2c, 2c+1, 8+2c, 9+2c}.
    private static final Topology MACHINE = SyntheticTopologies.uniform("synthetic:16", 1, 4, 2, 2, 32L << 20, 1);

    @Test
    void mixedSpreadsThreadsEvenlyOverChipletsPinnedToWholeChiplets()
    {
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed());
        List<ThreadAssignment> targets = placement.place(tids(100, 10), Map.of());
        assertThat(countByChiplet(targets)).containsOnly(Map.entry(0, 3L), Map.entry(1, 3L), Map.entry(2, 2L), Map.entry(3, 2L));
        for (ThreadAssignment target : targets) {
            assertThat(target.cpus()).isEqualTo(chiplet(target.chiplet().getAsInt()).cpus());
        }
    }

    @Test
    void localFillsAChipletBeforeTheNext()
    {
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.WICP_LOCAL, MACHINE.allowed());
        assertThat(countByChiplet(placement.place(tids(1, 6), Map.of()))).containsOnly(Map.entry(0, 4L), Map.entry(1, 2L));
    }

    @Test
    void threadsStayPutWhileTheirChipletHasRoom()
    {
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed());
        List<ThreadAssignment> first = placement.place(tids(1, 8), Map.of());
        Map<Integer, CpuSet> current = first.stream().collect(Collectors.toMap(ThreadAssignment::tid, ThreadAssignment::cpus));
        // Two threads on different chiplets end and two start: only the newcomers are placed, where the others left.
        CpuSet leftA = current.remove(1);
        CpuSet leftB = current.remove(5);
        List<Integer> now = List.of(2, 3, 4, 6, 7, 8, 20, 21);
        List<ThreadAssignment> second = placement.place(now, current);
        for (ThreadAssignment target : second) {
            if (target.tid() < 20) {
                assertThat(target.cpus()).isEqualTo(current.get(target.tid()));
            }
        }
        assertThat(second.stream().filter(target -> target.tid() >= 20).map(ThreadAssignment::cpus)).containsExactlyInAnyOrder(leftA, leftB);
        assertThat(countByChiplet(second).values()).containsOnly(2L);
    }

    @Test
    void unbalancedThreadsAreMovedBackToThePlannedCounts()
    {
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed());
        // Eight threads all on chiplet 3: six must move, two stay.
        Map<Integer, CpuSet> current = new HashMap<>();
        tids(1, 8).forEach(tid -> current.put(tid, chiplet(3).cpus()));
        List<ThreadAssignment> targets = placement.place(tids(1, 8), current);
        assertThat(countByChiplet(targets)).containsOnly(Map.entry(0, 2L), Map.entry(1, 2L), Map.entry(2, 2L), Map.entry(3, 2L));
        assertThat(targets.stream().filter(target -> target.cpus().equals(chiplet(3).cpus())).map(ThreadAssignment::tid)).containsExactly(1, 2);
    }

    @Test
    void onlyAllowedCpusAreHandedOut()
    {
        // This node leased chiplets 1 and 2, and the process may not use CPU 12 (chiplet 2).
        CpuSet allowed = chiplet(1).cpus().union(chiplet(2).cpus()).minus(CpuSet.of(12));
        for (Policy policy : List.of(Policy.WICP_MIXED, Policy.WICP_LOCAL, Policy.AUTO, Policy.WIC, Policy.WIN)) {
            List<ThreadAssignment> targets = TestPlacements.of(MACHINE, policy, allowed).place(tids(1, 9), Map.of());
            assertThat(targets).hasSize(9);
            assertThat(targets).allSatisfy(target -> assertThat(allowed.containsAll(target.cpus())).as(policy + " " + target).isTrue());
        }
    }

    @Test
    void wicGivesEachThreadACoreAndWimPinsNothing()
    {
        List<ThreadAssignment> wic = TestPlacements.of(MACHINE, Policy.WIC, MACHINE.allowed()).place(tids(1, 8), Map.of());
        assertThat(wic.stream().map(ThreadAssignment::cpus).distinct()).hasSize(8).allSatisfy(cpus -> assertThat(cpus.size()).isEqualTo(2));
        assertThat(TestPlacements.of(MACHINE, Policy.WIM, MACHINE.allowed()).place(tids(1, 8), Map.of())).isEmpty();
    }

    @Test
    void adaptiveWiderSpreadsUseMoreChiplets()
    {
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.ADAPTIVE, MACHINE.allowed());
        int[] narrow = {1, 1, 1, 1};
        assertThat(countByChiplet(placement.placeAdaptive(tids(1, 4), narrow))).containsOnly(Map.entry(0, 2L), Map.entry(1, 2L));
        int[] wide = {2, 2, 2, 2};
        assertThat(countByChiplet(placement.placeAdaptive(tids(1, 4), wide))).containsOnly(Map.entry(0, 1L), Map.entry(1, 1L), Map.entry(2, 1L), Map.entry(3, 1L));
        assertThat(placement.placeAdaptive(tids(1, 4), wide)).allSatisfy(target ->
                assertThat(target.cpus()).isEqualTo(chiplet(target.chiplet().getAsInt()).cpus()));
    }

    @Test
    void noUsableChipletIsRefusedUpFront()
    {
        // Core's node share refuses it; NodeRuntime adds the fsRoot hint.
        assertThatThrownBy(() -> TestPlacements.of(MACHINE, Policy.AUTO, CpuSet.of(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no chiplet of synthetic:16 holds any of the CPUs");
    }

    private static List<Integer> tids(int first, int count)
    {
        return IntStream.range(first, first + count).boxed().toList();
    }

    private static Chiplet chiplet(int id)
    {
        return MACHINE.chiplet(id).orElseThrow();
    }

    private static Map<Integer, Long> countByChiplet(List<ThreadAssignment> targets)
    {
        return targets.stream().map(ThreadAssignment::chiplet).map(OptionalInt::getAsInt).collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }
}
