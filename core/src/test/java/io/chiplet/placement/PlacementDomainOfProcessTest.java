package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link PlacementDomain#ofProcess}: the one "usable chiplets ∩ this process's CPUs" every runner starts from. */
class PlacementDomainOfProcessTest
{
    /** Dual EPYC 7763: CCD k = CPUs 8k..8k+7 and their siblings 8k+128..8k+135. */
    private static final Topology EPYC = TestTopologies.dualEpyc7763();

    @Test
    void keepsTheChipletsHoldingAProcessCpuAndOnlyThoseCpus()
    {
        // CPUs 3 and 130 lie on CCD 0, 9 on CCD 1, 5000 on no CPU of the machine.
        PlacementDomain share = PlacementDomain.ofProcess(EPYC, CpuSet.of(3, 9, 130, 5000));

        assertThat(share.ids()).containsExactly(0, 1);
        assertThat(share.shareCpus()).isEqualTo(CpuSet.of(3, 9, 130));
        assertThat(share.cpusOf(0)).isEqualTo(CpuSet.of(3, 130));
    }

    @Test
    void aProcessOnTheWholeMachineGetsTheTopologysShare()
    {
        assertThat(PlacementDomain.ofProcess(EPYC, CpuSet.range(0, 1023))).isEqualTo(PlacementDomain.of(EPYC));
    }

    @Test
    void theTopologysAllowedCpusNarrowTheProcessToo()
    {
        Topology two = TestTopologies.twoChiplets();
        // The topology allows CPU 1 only (its cpuset), the process both: chiplet 1 alone.
        Topology narrowed = two.restrictedTo(CpuSet.of(1), two.chiplets(), two.unknowns());

        PlacementDomain share = PlacementDomain.ofProcess(narrowed, CpuSet.of(0, 1));
        assertThat(share.chiplets()).extracting(Chiplet::id).containsExactly(1);
        assertThat(share.shareCpus()).isEqualTo(CpuSet.of(1));
    }

    @Test
    void noCpuInCommonIsOneErrorNamingTheSourceAndBothCpuSets()
    {
        assertThatThrownBy(() -> PlacementDomain.ofProcess(EPYC, CpuSet.of(300, 301)))
                .isInstanceOf(NoUsableChipletException.class)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no chiplet of " + EPYC.source() + " holds a CPU this process may use (allowed: 300-301); the topology allows CPUs 0-255")
                .satisfies(e -> {
                    NoUsableChipletException none = (NoUsableChipletException) e;
                    assertThat(none.source()).isEqualTo(EPYC.source());
                    assertThat(none.processCpus()).isEqualTo(CpuSet.of(300, 301));
                    assertThat(none.topologyAllowed()).isEqualTo(CpuSet.range(0, 255));
                });
        assertThatThrownBy(() -> PlacementDomain.ofProcess(EPYC, CpuSet.empty()))
                .isInstanceOf(NoUsableChipletException.class)
                .hasMessageContaining("(allowed: );");
    }

    @Test
    void aTopologyWithoutChipletsIsItsAllowedCpus()
    {
        Topology two = TestTopologies.twoChiplets();
        Topology none = two.toBuilder().source("synthetic:no-chiplets").caches(List.of()).chiplets(List.of())
                .unknowns(List.of("no L3 information")).build();

        assertThat(PlacementDomain.ofProcess(none, CpuSet.of(1, 7)).shareCpus()).isEqualTo(CpuSet.of(1));
        assertThatThrownBy(() -> PlacementDomain.ofProcess(none, CpuSet.of(7)))
                .isInstanceOf(NoUsableChipletException.class)
                .hasMessageContaining("synthetic:no-chiplets");
    }
}
