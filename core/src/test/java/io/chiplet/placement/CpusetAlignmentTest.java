package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpusetAlignmentTest
{
    // Two EPYC 7763: 16 CCDs of 8 cores, SMT siblings 128 apart (chiplet 0 is CPUs 0-7,128-135).
    private final Topology epyc = TestTopologies.dualEpyc7763();

    @Test
    void wholeChipletsAreAligned()
    {
        CpusetAlignment alignment = CpusetAlignment.of(epyc, CpuSet.parseList("8-23,136-151"));
        assertThat(alignment.aligned()).isTrue();
        assertThat(alignment.chipletsTouched()).isEqualTo(2);
        assertThat(alignment.describe()).isEqualTo("allowed CPUs 8-23,136-151 (32) touch 2 chiplets, all whole: chiplet-aligned");
    }

    @Test
    void aTwelveCpuPodOverThreeCcdsIsOneLineSayingWhatToChange()
    {
        // 12 CPUs, as a packed allocation without uncore-cache alignment can hand them out: 4 + 8 + ... over three CCDs.
        CpusetAlignment alignment = CpusetAlignment.of(epyc, CpuSet.parseList("4-15,128-131"));
        assertThat(alignment.aligned()).isFalse();
        assertThat(alignment.chipletsTouched()).isEqualTo(2);
        assertThat(CpusetAlignment.of(epyc, CpuSet.parseList("6-17")).chipletsTouched()).isEqualTo(3);
        assertThat(CpusetAlignment.of(epyc, CpuSet.parseList("6-17")).describe()).isEqualTo(
                "allowed CPUs 6-17 (12) touch 3 chiplets, 0 whole and 3 partly (chiplet 0: 2 of 16 CPUs, chiplet 1: 8 of 16 CPUs, chiplet 2: 2 of 16 CPUs):"
                        + " not chiplet-aligned, threads share L3s with other processes and cross chiplets; ask the host for whole chiplets of 16 CPUs"
                        + " (16 CPUs for 1; Kubernetes: a Guaranteed pod with the static CPU manager and prefer-align-cpus-by-uncorecache,"
                        + " see chiplet advise --cluster-manager)");
    }

    @Test
    void rescopeKeepsThePreviousChipletsWhereItCan()
    {
        // Placed on chiplets 0 and 1; the cpuset narrows to chiplet 1 and 2: keep chiplet 1.
        assertThat(CpusetAlignment.rescope(epyc, CpuSet.parseList("0-15"), CpuSet.parseList("8-23")).toList()).isEqualTo("8-15");
        // None of them left: everything now allowed.
        assertThat(CpusetAlignment.rescope(epyc, CpuSet.parseList("0-7"), CpuSet.parseList("16-31")).toList()).isEqualTo("16-31");
    }
}
