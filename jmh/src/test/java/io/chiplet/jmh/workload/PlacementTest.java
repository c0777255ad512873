package io.chiplet.jmh.workload;

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
    void wimLetsEveryWorkerUseEveryAllowedCpu()
    {
        assertThat(placement.place(epyc, "wim", 3)).containsExactly(epyc.allowed(), epyc.allowed(), epyc.allowed());
    }

    @Test
    void wicpLocalKeepsWorkersOnOneChipletAndMixedSpreadsThem()
    {
        int workers = WorkloadTrial.defaultWorkers(epyc);
        assertThat(workers).as("CPUs of one CCD: 8 cores x 2 threads").isEqualTo(16);

        List<CpuSet> local = placement.place(epyc, "wicp-local", workers);
        List<CpuSet> mixed = placement.place(epyc, "wicp-mixed", workers);

        // wicp-local fills CCD 0 (one CPU per worker); wicp-mixed puts each worker on a CCD of its own.
        CpuSet firstCcd = epyc.chiplets().getFirst().cpus();
        assertThat(local).allSatisfy(cpus -> assertThat(firstCcd.containsAll(cpus)).isTrue());
        assertThat(local.stream().reduce(CpuSet.empty(), CpuSet::union)).isEqualTo(firstCcd);
        assertThat(new HashSet<>(mixed)).hasSize(16);
        assertThat(mixed).allSatisfy(cpus -> assertThat(epyc.chiplets()).anySatisfy(chiplet -> assertThat(chiplet.cpus()).isEqualTo(cpus)));
    }

    @Test
    void singleChipletMachineKeepsEveryPolicyOnItsCpus()
    {
        Topology machine = TestTopologies.singleL3(2, 8L << 20);
        for (String policy : List.of("wim", "win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive")) {
            // Every policy keeps the workers on the one chiplet's CPUs.
            assertThat(placement.place(machine, policy, 2)).as(policy)
                    .hasSize(2)
                    .allSatisfy(cpus -> assertThat(CpuSet.of(0, 1).containsAll(cpus)).isTrue());
        }
    }

    @Test
    void rejectsUnknownPoliciesAndNoWorkers()
    {
        assertThatThrownBy(() -> placement.place(epyc, "spread", 2)).hasMessageContaining("\"spread\"").hasMessageContaining("wicp-local");
        assertThatThrownBy(() -> placement.place(epyc, "wim", 0)).hasMessageContaining("workers must be between 1");
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
