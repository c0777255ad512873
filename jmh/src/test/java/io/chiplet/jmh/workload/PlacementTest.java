package io.chiplet.jmh.workload;

import io.chiplet.placement.WorkerPlacement;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlacementTest
{
    private final Topology epyc = TestTopologies.dualEpyc7763();
    private final PlacementSource placement = BenchWiring.placement();

    @Test
    void wimBindsNoWorker()
    {
        assertThat(placement.place(epyc, "wim", 3).targets())
                .containsExactly(WorkerPlacement.unbound(0), WorkerPlacement.unbound(1), WorkerPlacement.unbound(2));
    }

    @Test
    void wicpLocalKeepsWorkersOnOneChipletAndMixedSpreadsThem()
    {
        int workers = WorkloadTrial.defaultWorkers(epyc);
        assertThat(workers).as("CPUs of one CCD: 8 cores x 2 threads").isEqualTo(16);

        List<CpuSet> local = cpus(placement.place(epyc, "wicp-local", workers));
        List<CpuSet> mixed = cpus(placement.place(epyc, "wicp-mixed", workers));

        // wicp-local fills CCD 0, every worker bound to the whole CCD (CPUs 0-7 and their siblings 128-135), as the
        // plugins bind it; wicp-mixed puts each worker on a whole CCD of its own.
        CpuSet firstCcd = CpuSet.parseList("0-7,128-135");
        assertThat(epyc.chiplets().getFirst().cpus()).isEqualTo(firstCcd);
        assertThat(local).hasSize(16).containsOnly(firstCcd);
        assertThat(new HashSet<>(mixed)).hasSize(16);
        assertThat(mixed).allSatisfy(cpus -> assertThat(epyc.chiplets()).anySatisfy(chiplet -> assertThat(chiplet.cpus()).isEqualTo(cpus)));
        // Two NUMA nodes: each worker's memory bound to its CCD's node (CCDs 0-7 on node 0).
        assertThat(placement.place(epyc, "wicp-local", workers).targets()).allSatisfy(target -> assertThat(target.memoryNodeToBind()).hasValue(0));
    }

    @Test
    void singleChipletMachineKeepsEveryPolicyOnItsCpus()
    {
        Topology machine = TestTopologies.singleL3(2, 8L << 20);
        for (String policy : List.of("win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive")) {
            // Every policy that binds keeps the workers on the one chiplet's CPUs; one node: memory is not bound.
            assertThat(placement.place(machine, policy, 2).targets()).as(policy)
                    .hasSize(2)
                    .allSatisfy(target -> {
                        assertThat(CpuSet.of(0, 1).containsAll(target.cpusToBind().orElseThrow())).isTrue();
                        assertThat(target.memoryNodeToBind()).isEmpty();
                    });
        }
        assertThat(placement.place(machine, "wim", 2).targets()).noneMatch(WorkerPlacement::bindsAnything);
    }

    @Test
    void rejectsUnknownPoliciesAndNoWorkers()
    {
        assertThatThrownBy(() -> placement.place(epyc, "spread", 2)).hasMessageContaining("\"spread\"").hasMessageContaining("wicp-local");
        assertThatThrownBy(() -> placement.place(epyc, "wim", 0)).hasMessageContaining("workers must be between 1");
    }

    private static List<CpuSet> cpus(WorkerPlacements targets)
    {
        return targets.targets().stream().map(target -> target.cpusToBind().orElseThrow()).toList();
    }

    @Test
    void cpuPairsCoverEveryPairOnSmallMachinesAndChipletPairsOnLargeOnes()
    {
        assertThat(CpuPair.plan(TestTopologies.singleL3(2, 0))).containsExactly(new CpuPair(0, 1));
        assertThat(CpuPair.plan(TestTopologies.singleL3(4, 0))).hasSize(6);

        List<CpuPair> epycPairs = CpuPair.plan(epyc);
        // 16 pairs inside a chiplet plus 16 * 15 / 2 between chiplets
        assertThat(epycPairs).hasSize(16 + 120);
        assertThat(epycPairs).doesNotHaveDuplicates();
    }

    @Test
    void cpuPairParsesItsParameterForm()
    {
        assertThat(CpuPair.parse(" 3:17 ")).isEqualTo(new CpuPair(3, 17));
        assertThat(new CpuPair(3, 17)).hasToString("3:17");
        assertThatThrownBy(() -> CpuPair.parse("3-17")).hasMessageContaining("like 0:1").hasMessageContaining("\"3-17\"");
        assertThatThrownBy(() -> CpuPair.parse("2:2")).hasMessageContaining("distinct");
    }
}
