package io.chiplet.topology;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one way fixtures build a topology: defaults, copies, and the canonical constructor's checks. */
class TopologyBuilderTest
{
    private static final CpuSet CPUS = CpuSet.range(0, 3);

    @Test
    void aBuilderStartsWithItsCpusPresentOnlineAndAllowedAndNothingElseKnown()
    {
        Topology topology = Topology.builder("synthetic:bare", CPUS).build();

        assertThat(topology.present()).isEqualTo(CPUS);
        assertThat(topology.online()).isEqualTo(CPUS);
        assertThat(topology.allowed()).isEqualTo(CPUS);
        assertThat(topology.packages()).isEmpty();
        assertThat(topology.numaNodes()).isEmpty();
        assertThat(topology.allowedMemoryNodes()).isEmpty();
        assertThat(topology.chiplets()).isEmpty();
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void aCopyChangesOnlyWhatItSets()
    {
        Topology original = HandBuiltTopologies.tiny();

        assertThat(original.toBuilder().build()).isEqualTo(original);
        Topology renamed = original.toBuilder().source("hwloc-xml:other.xml").build();
        assertThat(renamed.source()).isEqualTo("hwloc-xml:other.xml");
        assertThat(renamed.toBuilder().source(original.source()).build()).isEqualTo(original);
    }

    @Test
    void memoryComesFromEveryNodeUnlessLimitedAfterTheNodesAreSet()
    {
        List<NumaNode> nodes = List.of(NumaNode.of(0, CpuSet.range(0, 1), 1L << 30, Map.of(0, 10, 1, 20)),
                NumaNode.of(1, CpuSet.range(2, 3), 1L << 30, Map.of(0, 20, 1, 10)));
        Topology.Builder builder = Topology.builder("synthetic:two-nodes", CPUS).numaNodes(nodes);

        assertThat(builder.build().allowedMemoryNodes()).containsExactly(0, 1);
        Topology limited = builder.allowedMemoryNodes(Set.of(1)).build();
        assertThat(limited.allowedMemoryNodes()).containsExactly(1);
        // new nodes make the old limit meaningless: every node again
        assertThat(limited.toBuilder().numaNodes(List.of(nodes.get(0))).build().allowedMemoryNodes()).containsExactly(0);
        assertThatThrownBy(() -> builder.allowedMemoryNodes(Set.of(2)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed memory nodes [2] are not all NUMA nodes");
    }
}
