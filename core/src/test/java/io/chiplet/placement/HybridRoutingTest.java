package io.chiplet.placement;

import io.chiplet.placement.HybridRouting.CoreClass;
import io.chiplet.placement.HybridRouting.WorkKind;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HybridRoutingTest
{
    private static final Topology LAPTOP = TestTopologies.raptorLakeHybrid();
    private final HybridRouting routing = HybridRouting.of(LAPTOP, LAPTOP.allowed());

    @Test
    void routesByKindOfWork()
    {
        assertThat(routing.cpus(CoreClass.PERFORMANCE)).isEqualTo(CpuSet.range(0, 11));
        assertThat(routing.cpus(CoreClass.EFFICIENCY)).isEqualTo(CpuSet.range(12, 19));
        assertThat(routing.route(WorkKind.COMPUTE, 0, 0).coreClass()).isEqualTo(CoreClass.PERFORMANCE);
        assertThat(routing.route(WorkKind.RANDOM_ACCESS, 0, 0).coreClass()).isEqualTo(CoreClass.PERFORMANCE);
        HybridRouting.Route scan = routing.route(WorkKind.SEQUENTIAL_SCAN, 0, 0);
        assertThat(scan.coreClass()).isEqualTo(CoreClass.EFFICIENCY);
        assertThat(scan.cpus()).isEqualTo(CpuSet.range(12, 19));
        assertThat(scan.fallback()).isFalse();
    }

    @Test
    void fallsBackToTheOtherKindWhenThePreferredIsBusy()
    {
        HybridRouting.Route compute = routing.route(WorkKind.COMPUTE, 12, 3);
        assertThat(compute.coreClass()).isEqualTo(CoreClass.EFFICIENCY);
        assertThat(compute.fallback()).isTrue();
        HybridRouting.Route scan = routing.route(WorkKind.SEQUENTIAL_SCAN, 11, 8);
        assertThat(scan.coreClass()).isEqualTo(CoreClass.PERFORMANCE);
        assertThat(scan.fallback()).isTrue();
        HybridRouting.Route queued = routing.route(WorkKind.SEQUENTIAL_SCAN, 12, 8);
        assertThat(queued.coreClass()).isEqualTo(CoreClass.EFFICIENCY);
        assertThat(queued.queued()).isTrue();
    }

    @Test
    void allowedSetAndUniformMachines()
    {
        HybridRouting onlyEfficiency = HybridRouting.of(LAPTOP, CpuSet.range(12, 19));
        assertThat(onlyEfficiency.route(WorkKind.SEQUENTIAL_SCAN, 0, 0).cpus()).isEqualTo(CpuSet.range(12, 19));
        Topology epyc = TestTopologies.dualEpyc7763();
        HybridRouting uniform = HybridRouting.of(epyc, epyc.allowed());
        HybridRouting.Route scan = uniform.route(WorkKind.SEQUENTIAL_SCAN, 0, 0);
        assertThat(scan.coreClass()).isEqualTo(CoreClass.PERFORMANCE);
        assertThat(scan.cpus()).isEqualTo(epyc.allowed());
        assertThat(scan.fallback()).isFalse();
    }

    @Test
    void kindOfWorkFromWhatItRead()
    {
        assertThat(HybridRouting.kindOf(10, 0)).isEqualTo(WorkKind.RANDOM_ACCESS);
        assertThat(HybridRouting.kindOf(10, 10)).isEqualTo(WorkKind.RANDOM_ACCESS);
        assertThat(HybridRouting.kindOf(0, 10)).isEqualTo(WorkKind.SEQUENTIAL_SCAN);
        assertThat(HybridRouting.kindOf(0, 0)).isEqualTo(WorkKind.COMPUTE);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HybridRouting.kindOf(-1, 0)).hasMessageContaining("negative");
        assertThat(routing.isHybrid()).isTrue();
        assertThat(HybridRouting.of(LAPTOP, CpuSet.range(0, 11)).isHybrid()).isFalse();
    }

    @Test
    void stagesAreComputeUntilATaskShowsTheirKind()
    {
        StageWorkKinds kinds = new StageWorkKinds();
        assertThat(kinds.of(3)).isEqualTo(WorkKind.COMPUTE);
        kinds.finished(3, WorkKind.SEQUENTIAL_SCAN);
        assertThat(kinds.of(3)).isEqualTo(WorkKind.SEQUENTIAL_SCAN);
        assertThat(kinds.of(4)).isEqualTo(WorkKind.COMPUTE);
        kinds.finished(3, WorkKind.RANDOM_ACCESS);
        assertThat(kinds.of(3)).isEqualTo(WorkKind.RANDOM_ACCESS);
        for (int stage = 0; stage <= StageWorkKinds.MAX_STAGES; stage++) {
            kinds.finished(100 + stage, WorkKind.SEQUENTIAL_SCAN);
        }
        // past the bound everything is forgotten and learned again
        assertThat(kinds.of(3)).isEqualTo(WorkKind.COMPUTE);
        assertThat(kinds.of(100)).isEqualTo(WorkKind.COMPUTE);
    }
}
