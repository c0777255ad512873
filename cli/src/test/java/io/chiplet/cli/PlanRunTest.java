package io.chiplet.cli;

import io.chiplet.cli.PlanRun.PlannedWorker;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlanRunTest
{
    private static final String EPYC = "/hwloc-xml/AMD-Zen3-2xEpyc-7763.xml";
    private static final String SPR_SNC4 = "/snapshots/2xspr8480-snc4.lstopo.xml";

    @Test
    void readsEveryWorkerOfThePlan()
    {
        // Two workers under wicp-mixed on a dual Sapphire Rapids in SNC4: sub-NUMA cluster 0 on socket 0 and 4 on
        // socket 1, each whole (14 cores and their siblings), memory on the cluster's own node.
        assertThat(PlanRun.workers("--hwloc-xml", AdviseRun.fixture(SPR_SNC4).toString(), "--policy", "wicp-mixed", "--workers", "2")).containsExactly(
                new PlannedWorker(0, OptionalInt.of(0), Optional.of(CpuSet.parseList("0-13,112-125")), OptionalInt.of(0)),
                new PlannedWorker(1, OptionalInt.of(4), Optional.of(CpuSet.parseList("56-69,168-181")), OptionalInt.of(4)));
        // The EPYC fixture (NPS1, SMT off) has one NUMA node: memory is not bound, so no memory node is printed.
        String epyc = AdviseRun.fixture(EPYC).toString();
        assertThat(PlanRun.workers("--hwloc-xml", epyc, "--policy", "wicp-mixed", "--workers", "2")).containsExactly(
                new PlannedWorker(0, OptionalInt.of(0), Optional.of(CpuSet.parseList("0-7")), OptionalInt.empty()),
                new PlannedWorker(1, OptionalInt.of(8), Optional.of(CpuSet.parseList("64-71")), OptionalInt.empty()));
        assertThat(PlanRun.workers("--hwloc-xml", epyc, "--policy", "wim", "--workers", "2")).containsExactly(
                new PlannedWorker(0, OptionalInt.empty(), Optional.empty(), OptionalInt.empty()),
                new PlannedWorker(1, OptionalInt.empty(), Optional.empty(), OptionalInt.empty()));
    }

    @Test
    void aRefusedPlanFailsWithItsError()
    {
        assertThatThrownBy(() -> PlanRun.workers("--hwloc-xml", AdviseRun.fixture(EPYC).toString(), "--policy", "spread", "--workers", "2"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("exited 2")
                .hasMessageContaining("spread");
        assertThatThrownBy(() -> PlanRun.parse("{\"workers\": [{\"cpu\": \"0\"}]}")).hasMessageContaining("unexpected field \"cpu\"");
    }

    @Test
    void parsesOnlyTheWorkers()
    {
        assertThat(PlanRun.parse("""
                {"policy": "win", "requested": "win", "reason": "x", "bindsMemory": false, "extra": {"a": [1, 2]},
                 "workers": [{"worker": 0, "cpus": "0-3"}]}
                """)).containsExactly(new PlannedWorker(0, OptionalInt.empty(), Optional.of(CpuSet.parseList("0-3")), OptionalInt.empty()));
    }
}
