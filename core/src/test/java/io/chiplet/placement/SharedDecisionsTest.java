package io.chiplet.placement;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.engine.Engine;
import io.chiplet.engine.spark.SparkPartitionSettings;
import io.chiplet.engine.trino.TrinoSessionSettings;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The decisions the engine adapters take from core: usable chiplets, pin units, partition and session sizing. */
class SharedDecisionsTest
{
    // One package, four chiplets of 4 cores, one thread each: CPUs 0-3, 4-7, 8-11, 12-15; 32 MiB L3 each.
    private static final Topology FOUR = SyntheticTopologies.uniform("test", 1, 4, 4, 1, 32L << 20, 1);

    @Test
    void usableChipletsAreThoseHoldingAnAllowedCpuWithOnlyThoseCpus()
    {
        UsableChiplets usable = UsableChiplets.of(FOUR, CpuSet.parseList("2-5,15"));
        assertThat(usable.ids()).containsExactly(0, 1, 3);
        assertThat(usable.cpusOf(1)).isEqualTo(CpuSet.parseList("4-5"));
        assertThat(usable.cpusOf(2)).isEqualTo(CpuSet.empty());
        assertThat(usable.smallestCpuCount()).isEqualTo(1);
        Topology restricted = usable.restricted(List.of("cut"));
        assertThat(restricted.allowed()).isEqualTo(CpuSet.parseList("2-5,15"));
        assertThat(restricted.chiplets()).hasSize(3);
        assertThatThrownBy(() -> usable.cpusOf(9)).hasMessageContaining("no chiplet 9");
        assertThatThrownBy(() -> UsableChiplets.of(FOUR, CpuSet.of(99)).restricted(List.of())).hasMessageContaining("no chiplet of test");
    }

    @Test
    void chipletPoliciesPinWholeChipletsAndAutoPinsAsTheFormItResolvesTo()
    {
        assertThat(List.of(Policy.values()).stream().filter(Policy::pinsWholeChiplets))
                .containsExactly(Policy.WICP_LOCAL, Policy.WICP_MIXED, Policy.AUTO, Policy.ADAPTIVE);
        Plan plan = PlacementPlanner.plan(FOUR, new PlacementRequest(Policy.AUTO, 2, OptionalLong.of(1L << 20), CpuSet.parseList("0-13")));
        assertThat(plan.policy().pinsWholeChiplets()).isEqualTo(plan.requested().pinsWholeChiplets());
        // The targets apply the pin unit: auto (here wicp-local, 2 workers on chiplet 0) binds the whole chiplet's
        // share CPUs, wic one core each.
        PlacementDomain share = PlacementDomain.of(FOUR, CpuSet.parseList("0-13"));
        MemoryBinding memory = MemoryBinding.off(FOUR);
        WorkerPlacements auto = PlacementPlanner.targets(share, new PlacementRequest(Policy.AUTO, 2, OptionalLong.of(1L << 20), CpuSet.parseList("0-13")), memory);
        assertThat(auto.targets()).extracting(WorkerPlacement::cpusToBind)
                .containsExactly(Optional.of(CpuSet.parseList("0-3")), Optional.of(CpuSet.parseList("0-3")));
        WorkerPlacements wic = PlacementPlanner.targets(share, Policy.WIC, 2, memory);
        assertThat(wic.targets()).extracting(WorkerPlacement::cpusToBind)
                .containsExactly(Optional.of(CpuSet.of(0)), Optional.of(CpuSet.of(1)));
    }

    @Test
    void partitionBasisCountsPhysicalCoresAndEachCoresShareOfItsL3()
    {
        Topology epyc = TestTopologies.dualEpyc7763();
        PartitionBasis host = PartitionBasis.of(epyc, epyc.allowed());
        assertThat(host).isEqualTo(new PartitionBasis(16, 128, 4L << 20, 32L << 20));
        // Half a chiplet allowed: the other cores still share its L3, so a core's share stays 4 MiB.
        assertThat(PartitionBasis.of(epyc, CpuSet.parseList("0-3"))).isEqualTo(new PartitionBasis(1, 4, 4L << 20, 32L << 20));
        PartitionBasis unknownL3 = new PartitionBasis(2, 8, 0, 0);
        assertThat(PartitionBasis.combine(List.of(host, unknownL3, new PartitionBasis(1, 2, 1L << 20, 8L << 20))))
                .isEqualTo(new PartitionBasis(19, 138, 1L << 20, 8L << 20));
        assertThat(PartitionBasis.combine(List.of(unknownL3, unknownL3))).isEqualTo(new PartitionBasis(4, 16, 0, 0));
    }

    @Test
    void sparkSettingsComeFromOneSizing()
    {
        Map<String, String> settings = SparkPartitionSettings.of(PartitionSizing.of(new PartitionBasis(3, 12, 3L << 20, 24L << 20), OptionalLong.empty()))
                .stream().collect(Collectors.toMap(AdvisedSetting::key, AdvisedSetting::value));
        assertThat(settings).containsExactlyInAnyOrderEntriesOf(Map.of(
                SparkPartitionSettings.SHUFFLE_PARTITIONS, "36",
                SparkPartitionSettings.DEFAULT_PARALLELISM, "24",
                SparkPartitionSettings.ADVISORY_PARTITION_SIZE, "2m",
                SparkPartitionSettings.SKEW_THRESHOLD, "8m"));
        // Counts round up to the chiplets; a tiny L3 share is held to 1 MiB; an unknown one gives Spark's 64 MiB.
        PartitionSizing odd = PartitionSizing.of(new PartitionBasis(4, 5, 256L << 10, 1L << 20), OptionalLong.empty());
        assertThat(odd.partitions()).isEqualTo(16);
        assertThat(odd.rddPartitions()).isEqualTo(12);
        assertThat(odd.targetBytes()).isEqualTo(PartitionSizing.MIN_TARGET_BYTES);
        assertThat(PartitionSizing.of(new PartitionBasis(1, 1, 0, 0), OptionalLong.empty()).targetBytes()).isEqualTo(PartitionSizing.MAX_TARGET_BYTES);
    }

    @Test
    void trinoHashPartitionMinimumIsHeldToTrinosOwn()
    {
        assertThat(TrinoSessionSettings.hashPartitions(3)).extracting(AdvisedSetting::value).containsExactly("3", "102");
        assertThat(TrinoSessionSettings.hashPartitions(16)).extracting(AdvisedSetting::value).containsExactly("4", "112");
        assertThat(TrinoSessionSettings.taskConcurrency(FOUR, FOUR.allowed(), 2).value()).isEqualTo(8);
        List<AdvisedSetting> advice = Advice.advise(Engine.TRINO, FOUR, FOUR.allowed(), OptionalInt.empty(), OptionalLong.empty(), OptionalInt.of(1));
        assertThat(advice).extracting(AdvisedSetting::key).containsSubsequence(
                TrinoSessionSettings.TASK_CONCURRENCY, TrinoSessionSettings.MIN_HASH_PARTITION_COUNT, TrinoSessionSettings.MAX_HASH_PARTITION_COUNT);
    }
}
