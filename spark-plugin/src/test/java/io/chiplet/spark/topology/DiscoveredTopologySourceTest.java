package io.chiplet.spark.topology;

import io.chiplet.affinity.PinnableCpusTracker;
import io.chiplet.affinity.ThreadId;
import io.chiplet.placement.NoUsableChipletException;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static io.chiplet.spark.topology.ExecutorTopologies.chiplet;
import static io.chiplet.spark.topology.ExecutorTopologies.topology;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiscoveredTopologySourceTest
{
    private static final long MIB = 1L << 20;
    private static final Topology SNAPSHOT = topology(CpuSet.range(0, 11),
            List.of(chiplet(0, CpuSet.range(0, 3), 32 * MIB), chiplet(1, CpuSet.range(4, 7), 32 * MIB), chiplet(2, CpuSet.range(8, 11), 32 * MIB)));
    private static final Path ROOT = Path.of("/snapshots/epyc");

    @Test
    void snapshotIsCutToTheCpusThisProcessMayUse()
    {
        Topology restricted = DiscoveredTopologySource.restrictTo(SNAPSHOT, CpuSet.of(1, 2, 9), ROOT);

        assertThat(restricted.allowed()).isEqualTo(CpuSet.of(1, 2, 9));
        assertThat(restricted.chiplets()).extracting(Chiplet::id).containsExactly(0, 2);
        assertThat(restricted.unknowns()).singleElement().asString().contains("1-2,9", "1 chiplets of the snapshot have none");
        // Chiplets 0 and 2 with three usable CPUs; this topology lists no cores, so each usable CPU counts as one and
        // chiplet 0's two share its L3.
        assertThat(PartitionBasis.of(restricted, restricted.allowed())).isEqualTo(new PartitionBasis(2, 3, 16 * MIB, 32 * MIB));
    }

    @Test
    void snapshotWithinTheLiveCpusIsKeptWhole()
    {
        Topology restricted = DiscoveredTopologySource.restrictTo(SNAPSHOT, CpuSet.range(0, 63), ROOT);
        assertThat(restricted.allowed()).isEqualTo(SNAPSHOT.allowed());
        assertThat(restricted.chiplets()).isEqualTo(SNAPSHOT.chiplets());
        assertThat(restricted.unknowns()).isEmpty();
    }

    @Test
    void nothingLeftIsAnErrorNamingTheSnapshot()
    {
        assertThatThrownBy(() -> DiscoveredTopologySource.restrictTo(SNAPSHOT, CpuSet.of(12, 13), ROOT))
                .isInstanceOf(IllegalStateException.class)
                .hasCauseInstanceOf(NoUsableChipletException.class)
                .hasMessage("spark.chiplet.fsRoot = /snapshots/epyc: no chiplet of " + SNAPSHOT.source()
                        + " holds a CPU this process may use (allowed: 12-13); the topology allows CPUs 0-11");
    }

    @Test
    void liveMachineIsReadWithTheProcessMask()
    {
        Topology live = new DiscoveredTopologySource().read(SparkSettings.defaults());
        assertThat(live.source()).startsWith("sysfs:");
        assertThat(live.allowed()).isEqualTo(PinnableCpusTracker.readLive());
        assertThat(ThreadId.cpusAllowed(ThreadId.current()).orElseThrow().containsAll(live.allowed())).isTrue();
        assertThat(live.chiplets()).isNotEmpty();
    }
}
