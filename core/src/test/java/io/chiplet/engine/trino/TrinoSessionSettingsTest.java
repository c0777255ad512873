package io.chiplet.engine.trino;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.placement.SkewHint;
import io.chiplet.placement.SyntheticTopologies;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrinoSessionSettingsTest
{
    @Test
    void hashPartitionCountsAreNumbersThatTheAdviceRowsPrint()
    {
        assertThat(TrinoSessionSettings.HashPartitions.of(3)).isEqualTo(new TrinoSessionSettings.HashPartitions(3, 102, 3));
        assertThat(TrinoSessionSettings.HashPartitions.of(16)).isEqualTo(new TrinoSessionSettings.HashPartitions(4, 112, 16));
        assertThat(TrinoSessionSettings.hashPartitions(16)).extracting(AdvisedSetting::value).containsExactly("4", "112");
    }

    @Test
    void theAdvisedWorkersPerHostAreAsGivenOrOnePerChiplet()
    {
        // One package, four chiplets of 4 cores.
        io.chiplet.topology.Topology four = SyntheticTopologies.uniform("test", 1, 4, 4, 1, 32L << 20, 1);
        assertThat(Advice.workersPerHost(four, four.allowed(), java.util.OptionalInt.empty())).isEqualTo(4);
        assertThat(Advice.workersPerHost(four, io.chiplet.topology.CpuSet.parseList("0-5"), java.util.OptionalInt.empty())).isEqualTo(2);
        assertThat(Advice.workersPerHost(four, four.allowed(), java.util.OptionalInt.of(3))).isEqualTo(3);
    }

    @Test
    void workersSharingAHostShareItsCores()
    {
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(2, 1))).value()).isEqualTo(2);
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(2, 2))).value()).isEqualTo(1);
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(48, 2))).value()).isEqualTo(16);
    }

    @Test
    void differingWorkersGetTheSmallestWorkersFigure()
    {
        TrinoSessionSettings.TaskConcurrency mixed = TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(64, 1), new TrinoSessionSettings.WorkerHost(8, 1)));
        assertThat(mixed.value()).isEqualTo(8);
        assertThat(mixed.setting()).isEqualTo(new AdvisedSetting("task_concurrency", "8", mixed.reason()));
        assertThat(mixed.reason()).contains("smallest of the differing workers");
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(new TrinoSessionSettings.WorkerHost(8, 1), new TrinoSessionSettings.WorkerHost(8, 1))).reason())
                .doesNotContain("differing");
    }

    @Test
    void noWorkerIsNoFigure()
    {
        assertThatThrownBy(() -> TrinoSessionSettings.taskConcurrency(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TrinoSessionSettings.WorkerHost(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void taskConcurrencyIsAPowerOfTwoUpToSixtyFour()
    {
        assertThat(TrinoSessionSettings.taskConcurrency(1)).isEqualTo(1);
        assertThat(TrinoSessionSettings.taskConcurrency(3)).isEqualTo(2);
        assertThat(TrinoSessionSettings.taskConcurrency(48)).isEqualTo(32);
        assertThat(TrinoSessionSettings.taskConcurrency(64)).isEqualTo(64);
        assertThat(TrinoSessionSettings.taskConcurrency(200)).isEqualTo(64);
        assertThatThrownBy(() -> TrinoSessionSettings.taskConcurrency(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSkewHintDoublesOrHalvesTheFittedValues()
    {
        Optional<TrinoSessionSettings.HashPartitions> threeWorkers = Optional.of(TrinoSessionSettings.HashPartitions.of(3));
        assertThat(threeWorkers.orElseThrow()).isEqualTo(new TrinoSessionSettings.HashPartitions(3, 102, 3));

        assertThat(TrinoSessionSettings.withSkewHint(SkewHint.NONE, 32, threeWorkers))
                .isEqualTo(new TrinoSessionSettings.HintedValues(SkewHint.NONE, 32, Optional.of(new TrinoSessionSettings.HashPartitions(3, 102, 3))));
        // Spread: 2 x 102 = 204, already a multiple of 3 workers.
        assertThat(TrinoSessionSettings.withSkewHint(SkewHint.SPREAD, 32, threeWorkers))
                .isEqualTo(new TrinoSessionSettings.HintedValues(SkewHint.SPREAD, 64, Optional.of(new TrinoSessionSettings.HashPartitions(3, 204, 3))));
        assertThat(TrinoSessionSettings.withSkewHint(SkewHint.CONSOLIDATE, 32, threeWorkers))
                .isEqualTo(new TrinoSessionSettings.HintedValues(SkewHint.CONSOLIDATE, 16, Optional.of(new TrinoSessionSettings.HashPartitions(1, 102, 3))));
        // Seven workers: 105 fitted, 2 x 105 = 210 is a multiple of 7; one driver never halves to none.
        assertThat(TrinoSessionSettings.withSkewHint(SkewHint.SPREAD, 1, Optional.of(TrinoSessionSettings.HashPartitions.of(7))))
                .isEqualTo(new TrinoSessionSettings.HintedValues(SkewHint.SPREAD, 2, Optional.of(new TrinoSessionSettings.HashPartitions(4, 210, 7))));
        assertThat(TrinoSessionSettings.withSkewHint(SkewHint.CONSOLIDATE, 1, Optional.empty()))
                .isEqualTo(new TrinoSessionSettings.HintedValues(SkewHint.CONSOLIDATE, 1, Optional.empty()));
    }

    @Test
    void adviceRowsSayWhatEachHintSets()
    {
        assertThat(TrinoSessionSettings.skewHintSettings(32, Optional.of(TrinoSessionSettings.HashPartitions.of(3))))
                .extracting(AdvisedSetting::key, AdvisedSetting::value)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("skew hint spread", "task_concurrency=64, min_hash_partition_count=3, max_hash_partition_count=204"),
                        org.assertj.core.groups.Tuple.tuple("skew hint consolidate", "task_concurrency=16, min_hash_partition_count=1, max_hash_partition_count=102"));
        assertThat(TrinoSessionSettings.skewHintSettings(4, Optional.empty()))
                .extracting(AdvisedSetting::value)
                .containsExactly("task_concurrency=8", "task_concurrency=2");
    }
}
