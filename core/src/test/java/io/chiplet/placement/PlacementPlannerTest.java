package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlacementPlannerTest
{
    private static final Topology EPYC = TestTopologies.dualEpyc7763();
    private static final Topology EPYC_XML = TestTopologies.epyc7763HwlocXml();
    private static final Topology SNC2 = TestTopologies.cascadeLakeSnc2();
    private static final Topology HYBRID = TestTopologies.raptorLakeHybrid();

    private static Plan plan(Topology topology, Policy policy, int workers)
    {
        return PlacementPlanner.plan(topology, PlacementRequest.of(topology, policy, workers));
    }

    @Test
    void wicpMixedWithSixteenWorkersPutsExactlyOneWorkerOnEveryCcd()
    {
        for (Topology topology : List.of(EPYC, EPYC_XML)) {
            Plan plan = plan(topology, Policy.WICP_MIXED, 16);
            assertThat(plan.assignments()).extracting(a -> a.chiplet().getAsInt()).containsExactlyInAnyOrderElementsOf(
                    topology.chiplets().stream().map(c -> c.id()).toList());
            for (Assignment assignment : plan.assignments()) {
                // One worker per chiplet: it gets the whole CCD, and its memory on the CCD's node.
                var chiplet = topology.chiplet(assignment.chiplet().getAsInt()).orElseThrow();
                assertThat(assignment.cpus()).isEqualTo(chiplet.cpus());
                assertThat(assignment.numaNode()).isEqualTo(chiplet.numaNode());
            }
        }
        // Consecutive workers alternate sockets: worker 0 on CCD 0 of package 0, worker 1 on CCD 8 (package 1).
        Plan plan = plan(EPYC, Policy.WICP_MIXED, 16);
        assertThat(plan.assignments().get(0).cpus()).isEqualTo(CpuSet.parseList("0-7,128-135"));
        assertThat(plan.assignments().get(1).cpus()).isEqualTo(CpuSet.parseList("64-71,192-199"));
        assertThat(plan.assignments().get(1).numaNode()).isEqualTo(1);
    }

    @Test
    void wicpLocalWithEightWorkersFillsOneCcd()
    {
        Plan plan = plan(EPYC, Policy.WICP_LOCAL, 8);
        assertThat(plan.assignments()).allSatisfy(a -> assertThat(a.chiplet()).isEqualTo(OptionalInt.of(0)));
        assertThat(union(plan)).isEqualTo(CpuSet.range(0, 7));
        // Then the SMT siblings of the same CCD, before the next CCD.
        Plan sixteen = plan(EPYC, Policy.WICP_LOCAL, 16);
        assertThat(union(sixteen)).isEqualTo(CpuSet.parseList("0-7,128-135"));
        assertThat(plan(EPYC, Policy.WICP_LOCAL, 17).assignments().get(16).cpus()).isEqualTo(CpuSet.of(8));
    }

    @Test
    void sncChipletsAreTheL3AndNodeHalvesDespiteInterleavedNumbers()
    {
        Plan mixed = plan(SNC2, Policy.WICP_MIXED, 4);
        // Alternating packages: node 0 (package 0), node 1 (package 1), node 2 (package 0), node 3 (package 1).
        assertThat(mixed.assignments()).extracting(Assignment::numaNode).containsExactly(0, 1, 2, 3);
        for (Assignment assignment : mixed.assignments()) {
            CpuSet node = SNC2.numaNode(assignment.numaNode()).orElseThrow().cpus();
            assertThat(assignment.cpus()).isEqualTo(node);
        }
        Plan local = plan(SNC2, Policy.WICP_LOCAL, 20);
        // 10 cores of node 0 first (CPUs 0, 4, ... 36), then their siblings (40, 44, ... 76): never another node.
        assertThat(union(local)).isEqualTo(SNC2.numaNode(0).orElseThrow().cpus());
        assertThat(local.assignments().get(9).cpus()).isEqualTo(CpuSet.of(36));
        assertThat(local.assignments().get(10).cpus()).isEqualTo(CpuSet.of(40));
        assertThat(plan(SNC2, Policy.WICP_LOCAL, 21).assignments().get(20).cpus()).isEqualTo(CpuSet.of(2));
    }

    @Test
    void winGivesEachWorkerItsNodesCpus()
    {
        Plan plan = plan(SNC2, Policy.WIN, 6);
        assertThat(plan.assignments()).extracting(Assignment::numaNode).containsExactly(0, 1, 2, 3, 0, 1);
        assertThat(plan.assignments().get(2).cpus()).isEqualTo(SNC2.numaNode(2).orElseThrow().cpus());
        assertThat(plan.assignments().get(2).chiplet()).isEqualTo(OptionalInt.of(2));
        assertThat(plan(EPYC, Policy.WIN, 2).assignments().get(1).cpus()).isEqualTo(CpuSet.parseList("64-127,192-255"));
    }

    @Test
    void wimLeavesEveryWorkerUnpinned()
    {
        Plan plan = plan(EPYC, Policy.WIM, 3);
        assertThat(plan.assignments()).allSatisfy(a -> {
            assertThat(a.cpus()).isEqualTo(EPYC.allowed());
            assertThat(a.chiplet()).isEmpty();
        });
        // ... and its finished targets bind neither CPUs nor memory.
        assertThat(PlacementPlanner.targets(PlacementDomain.of(EPYC), Policy.WIM, 3, MemoryBinding.of(EPYC, true, MemoryKind.DRAM)).targets())
                .allSatisfy(target -> assertThat(target.bindsAnything()).isFalse());
    }

    @Test
    void wicGivesWholeCoresThenSingleThreadsThenSharesEvenly()
    {
        Plan plan = plan(HYBRID, Policy.WIC, 3);
        assertThat(plan.assignments()).extracting(Assignment::cpus)
                .containsExactly(CpuSet.of(0, 1), CpuSet.of(2, 3), CpuSet.of(4, 5));
        Plan beyondCores = plan(TestTopologies.twoChiplets(), Policy.WIC, 5);
        assertThat(beyondCores.assignments()).extracting(a -> a.cpus().first()).containsExactly(0, 1, 0, 1, 0);
    }

    @Test
    void onlyAllowedCpusAndChipletsWithoutAnyAreSkipped()
    {
        CpuSet allowed = CpuSet.parseList("8-15,200-207");
        Plan plan = PlacementPlanner.plan(EPYC, PlacementRequest.of(EPYC, Policy.WICP_MIXED, 4).withAllowed(allowed));
        assertThat(plan.assignments()).extracting(a -> a.chiplet().getAsInt()).containsExactly(1, 9, 1, 9);
        assertThat(plan.assignments()).allSatisfy(a -> assertThat(allowed.containsAll(a.cpus())).isTrue());
        assertThat(plan.assignments().get(0).cpus()).isEqualTo(CpuSet.parseList("8-11"));
    }

    @Test
    void autoFollowsTheStudysCacheGuidelines()
    {
        PlacementRequest request = PlacementRequest.of(EPYC, Policy.AUTO, 8);
        Plan small = PlacementPlanner.plan(EPYC, request.withWorkingSet(16L << 20));
        assertThat(small.policy()).isEqualTo(Policy.WICP_LOCAL);
        assertThat(small.requested()).isEqualTo(Policy.AUTO);
        assertThat(small.reason()).contains("16 MiB").contains("32 MiB");
        Plan medium = PlacementPlanner.plan(EPYC, request.withWorkingSet(200L << 20));
        assertThat(medium.policy()).isEqualTo(Policy.WICP_MIXED);
        assertThat(medium.reason()).contains("256 MiB");
        Plan large = PlacementPlanner.plan(EPYC, request.withWorkingSet(8L << 30));
        assertThat(large.policy()).isEqualTo(Policy.WICP_MIXED);
        assertThat(large.reason()).contains("converge");
        Plan unknown = PlacementPlanner.plan(EPYC, request);
        assertThat(unknown.policy()).isEqualTo(Policy.WICP_MIXED);
        assertThat(unknown.reason()).contains("unknown");
    }

    @Test
    void adaptiveStartsCompactLikeCharm()
    {
        Plan plan = plan(EPYC, Policy.ADAPTIVE, 10);
        // Spread 1: the first CCD's eight cores, then the next CCD, never an SMT sibling while cores are free.
        assertThat(plan.assignments()).extracting(a -> a.cpus().first()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(plan.assignments()).extracting(a -> a.chiplet().getAsInt()).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 1, 1);
    }

    @Test
    void hybridCoresArePerformanceFirst()
    {
        Plan plan = plan(HYBRID, Policy.WICP_LOCAL, 8);
        assertThat(plan.assignments()).extracting(a -> a.cpus().first()).containsExactly(0, 2, 4, 6, 8, 10, 12, 13);
    }

    @Test
    void rejectsUnknownPoliciesAndUnusableRequests()
    {
        assertThatThrownBy(() -> Policy.parse("wicp"))
                .hasMessageContaining("\"wicp\"")
                .hasMessageContaining("wim, win, wicp-local, wicp-mixed, wic, auto, adaptive");
        assertThat(Policy.parse("WICP_MIXED")).isEqualTo(Policy.WICP_MIXED);
        assertThatThrownBy(() -> PlacementRequest.of(EPYC, Policy.WIC, 0)).hasMessageContaining("workers");
        assertThatThrownBy(() -> PlacementPlanner.plan(EPYC, PlacementRequest.of(EPYC, Policy.WIC, 1).withAllowed(CpuSet.of(300))))
                .hasMessageContaining("none of the allowed CPUs [300] is online");
    }

    private static CpuSet union(Plan plan)
    {
        Set<CpuSet> sets = plan.assignments().stream().map(Assignment::cpus).collect(Collectors.toSet());
        return sets.stream().reduce(CpuSet.empty(), CpuSet::union);
    }
}
