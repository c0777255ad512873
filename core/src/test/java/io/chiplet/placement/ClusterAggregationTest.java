package io.chiplet.placement;

import io.chiplet.engine.trino.TrinoSessionSettings;
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
    void executorsWorkingOnTheirHostsChipletsCountEachHostOnce()
    {
        PartitionBasis host = new PartitionBasis(8, 64, 4L << 20, 32L << 20);
        // Task mode, one executor owning each host; two of them on node-1 (one after the other, or both at once).
        assertThat(PartitionBasis.ofCluster(List.of(
                new PartitionBasis.ExecutorBasis("node-1", false, host),
                new PartitionBasis.ExecutorBasis("node-1", false, host),
                new PartitionBasis.ExecutorBasis("node-2", false, host))))
                .isEqualTo(new PartitionBasis(16, 128, 4L << 20, 32L << 20));
        // Executor mode under wim: nothing leased, two executors each on all 4 chiplets of one host.
        PartitionBasis unleased = new PartitionBasis(4, 16, 2L << 20, 8L << 20);
        assertThat(PartitionBasis.ofCluster(List.of(
                new PartitionBasis.ExecutorBasis("node-1", false, unleased),
                new PartitionBasis.ExecutorBasis("node-1", false, unleased))))
                .isEqualTo(new PartitionBasis(4, 16, 2L << 20, 8L << 20));
    }

    @Test
    void executorsHoldingChipletsOfTheirOwnCountThemEach()
    {
        PartitionBasis leased = new PartitionBasis(1, 4, 2L << 20, 8L << 20);
        // Executor mode (one leased chiplet each) or host shares: two on node-1, one on node-2.
        assertThat(PartitionBasis.ofCluster(List.of(
                new PartitionBasis.ExecutorBasis("node-1", true, leased),
                new PartitionBasis.ExecutorBasis("node-1", true, leased),
                new PartitionBasis.ExecutorBasis("node-2", true, new PartitionBasis(2, 8, 1L << 20, 8L << 20)))))
                .isEqualTo(new PartitionBasis(4, 16, 1L << 20, 8L << 20));
        // One executor leased a chiplet of node-1 while two others there (control executors, say) leased nothing:
        // the lease, plus the host once.
        assertThat(PartitionBasis.ofCluster(List.of(
                new PartitionBasis.ExecutorBasis("node-1", true, leased),
                new PartitionBasis.ExecutorBasis("node-1", false, new PartitionBasis(4, 16, 2L << 20, 8L << 20)),
                new PartitionBasis.ExecutorBasis("node-1", false, new PartitionBasis(4, 16, 2L << 20, 8L << 20)))))
                .isEqualTo(new PartitionBasis(5, 20, 2L << 20, 8L << 20));
    }

    @Test
    void aHostReportedDifferentlyCountsAsItsWidestReportInAnyOrder()
    {
        PartitionBasis narrow = new PartitionBasis(2, 8, 1L << 20, 4L << 20);
        PartitionBasis wide = new PartitionBasis(4, 16, 2L << 20, 8L << 20);
        PartitionBasis moreCores = new PartitionBasis(4, 20, 2L << 20, 8L << 20);
        for (List<PartitionBasis> reports : List.of(List.of(narrow, wide, moreCores), List.of(moreCores, wide, narrow), List.of(wide, moreCores, narrow))) {
            assertThat(PartitionBasis.ofCluster(reports.stream().map(basis -> new PartitionBasis.ExecutorBasis("node-1", false, basis)).toList()))
                    .as("%s", reports)
                    .isEqualTo(new PartitionBasis(4, 20, 2L << 20, 8L << 20));
        }
        assertThatThrownBy(() -> PartitionBasis.ofCluster(List.of())).isInstanceOf(IllegalArgumentException.class);
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
