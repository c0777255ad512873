package io.chiplet.placement;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the engines' coordinators combine what their workers report: core's rules, one per decision. */
class ClusterAggregationTest
{
    @Test
    void skewHintsSpreadNoWiderThanTheWidestExecutorAndConsolidateByTheSmallestL3()
    {
        PartitionBasis small = new PartitionBasis(1, 4, 8L << 20, 32L << 20);
        PartitionBasis large = new PartitionBasis(4, 32, 4L << 20, 16L << 20);
        assertThat(PartitionBasis.forSkewHints(List.of(small, large))).isEqualTo(new PartitionBasis.SkewHintBasis(4, 16L << 20));
        // An executor that knows no L3 size: no L3 to consolidate by.
        assertThat(PartitionBasis.forSkewHints(List.of(large, new PartitionBasis(2, 8, 0, 0)))).isEqualTo(new PartitionBasis.SkewHintBasis(4, 0));
        // No executor yet: one chiplet, no L3.
        assertThat(PartitionBasis.forSkewHints(List.of())).isEqualTo(new PartitionBasis.SkewHintBasis(1, 0));
    }

    @Test
    void trinoWorkersOfOneHostShareTheFewestCoresAnyReports()
    {
        assertThat(TrinoSessionSettings.WorkerHost.sharedBy(List.of(16, 12, 16))).isEqualTo(new TrinoSessionSettings.WorkerHost(12, 3));
        assertThat(TrinoSessionSettings.WorkerHost.sharedBy(List.of(8))).isEqualTo(new TrinoSessionSettings.WorkerHost(8, 1));
        assertThatThrownBy(() -> TrinoSessionSettings.WorkerHost.sharedBy(List.of())).isInstanceOf(IllegalArgumentException.class);
        // 12 cores over 3 workers: 4 each, task_concurrency 4
        assertThat(TrinoSessionSettings.taskConcurrency(List.of(TrinoSessionSettings.WorkerHost.sharedBy(List.of(16, 12, 16)))).value()).isEqualTo(4);
    }
}
