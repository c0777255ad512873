package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each policy means, as the adapters read it from {@link Policy} instead of comparing policies: the unit a
 * worker binds, the slot order, whether it adapts at run time, how a process as one worker is bound. Each is checked
 * against what the planner and the process rule do with it, so a policy whose words and deeds differ fails here.
 */
class PolicyMeaningTest
{
    private static final Topology EPYC = TestTopologies.dualEpyc7763();
    private static final PlacementDomain SHARE = PlacementDomain.of(EPYC);
    private static final MemoryBinding BIND = MemoryBinding.of(EPYC, true, io.chiplet.topology.MemoryKind.DRAM);

    @Test
    void eachPolicySaysWhatItMeans()
    {
        Map<Policy, String> meaning = new EnumMap<>(Policy.class);
        for (Policy policy : Policy.values()) {
            meaning.put(policy, policy.unit() + " " + policy.slotOrder() + " " + policy.adaptation() + " " + policy.processBinding());
        }
        assertThat(meaning).containsExactlyInAnyOrderEntriesOf(Map.of(
                Policy.WIM, "MACHINE LEAST_BUSY_CHIPLET NONE NOTHING",
                Policy.WIN, "NUMA_NODE LEAST_BUSY_CHIPLET NONE LEASED_CHIPLET",
                Policy.WICP_LOCAL, "CHIPLET PLAN_ORDER NONE LEASED_CHIPLET",
                Policy.WICP_MIXED, "CHIPLET LEAST_BUSY_CHIPLET NONE LEASED_CHIPLET",
                Policy.WIC, "CORE PLAN_ORDER NONE LEASED_CHIPLET",
                Policy.AUTO, "CHIPLET LEAST_BUSY_CHIPLET NONE LEASED_CHIPLET",
                Policy.ADAPTIVE, "CHIPLET LEAST_BUSY_CHIPLET SPREAD_FROM_REMOTE_ACCESSES LEASED_CHIPLET"));
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void theUnitIsWhatThePlannerBindsOneWorkerTo(Policy policy)
    {
        WorkerPlacement worker = PlacementPlanner.targets(SHARE, policy, 1, BIND).target(0);
        assertThat(worker.bindsAnything()).as("binds workers").isEqualTo(policy.bindsWorkers());
        if (!policy.bindsWorkers()) {
            return;
        }
        CpuSet cpus = worker.cpusToBind().orElseThrow();
        CpuSet firstChiplet = SHARE.cpusOf(SHARE.ids().getFirst());
        switch (policy.unit()) {
            case CHIPLET -> assertThat(cpus).isEqualTo(firstChiplet);
            case CORE -> assertThat(EPYC.cores()).anyMatch(core -> core.cpus().equals(cpus));
            case NUMA_NODE -> assertThat(EPYC.numaNodes()).anyMatch(node -> node.cpus().intersect(SHARE.shareCpus()).equals(cpus));
            case MACHINE -> throw new AssertionError("a machine-wide unit binds nothing");
        }
        assertThat(policy.pinsWholeChiplets()).isEqualTo(policy.unit() == Policy.Unit.CHIPLET);
    }

    @ParameterizedTest
    @EnumSource(Policy.class)
    void aProcessAsOneWorkerIsBoundByItsProcessBinding(Policy policy)
    {
        PlacementDomain leased = SHARE.leased(java.util.List.of(EPYC.chiplets().get(3)));
        WorkerPlacement process = HostDivision.processPlacement(leased, policy, BIND);
        switch (policy.processBinding()) {
            case NOTHING -> assertThat(process.bindsAnything()).isFalse();
            case LEASED_CHIPLET -> assertThat(process.cpusToBind()).contains(leased.shareCpus());
        }
        assertThat(HostDivision.processRule(policy)).startsWith("policy " + policy.cliName() + " binds");
    }
}
