package io.chiplet.jmh.workload;

import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkingSetsTest
{
    private static final long MIB = 1L << 20;

    @Test
    void dualEpycSizesBracketOneChipletsL3AndAllL3s()
    {
        Topology topology = TestTopologies.dualEpyc7763();
        WorkingSets sets = WorkingSets.of(topology);

        assertThat(sets.chipletL3Bytes()).isEqualTo(32 * MIB);
        assertThat(sets.totalL3Bytes()).isEqualTo(512 * MIB);
        assertThat(sets.bytes(SizeClass.BELOW_L3)).isEqualTo(16 * MIB);
        assertThat(sets.bytes(SizeClass.BETWEEN)).isEqualTo(272 * MIB).isBetween(32 * MIB, 512 * MIB);
        assertThat(sets.bytes(SizeClass.BEYOND)).isEqualTo(2048 * MIB);
    }

    @Test
    void singleL3MachineHasNoBetweenRangeSoItLandsJustPastTheL3()
    {
        WorkingSets sets = WorkingSets.of(TestTopologies.singleL3(2, 8 * MIB));

        assertThat(sets.singleL3()).isTrue();
        assertThat(sets.l3Known()).isTrue();
        assertThat(sets.bytes(SizeClass.BELOW_L3)).isEqualTo(4 * MIB);
        assertThat(sets.bytes(SizeClass.BETWEEN)).isEqualTo(12 * MIB);
        assertThat(sets.bytes(SizeClass.BEYOND)).isEqualTo(32 * MIB);
    }

    @Test
    void unknownL3AssumesATypicalChiplet()
    {
        WorkingSets sets = WorkingSets.of(TestTopologies.singleL3(4, 0));

        assertThat(sets.l3Known()).isFalse();
        assertThat(sets.chipletL3Bytes()).isEqualTo(WorkingSets.ASSUMED_L3_BYTES);
        assertThat(sets.bytes(SizeClass.BELOW_L3)).isEqualTo(16 * MIB);
    }

    @Test
    void sizeClassLabelsRoundTripAndUnknownOnesAreNamed()
    {
        for (SizeClass sizeClass : SizeClass.values()) {
            assertThat(SizeClass.fromLabel(sizeClass.label())).isEqualTo(sizeClass);
        }
        assertThatThrownBy(() -> SizeClass.fromLabel("huge")).hasMessageContaining("\"huge\"").hasMessageContaining("below-l3, between or beyond");
    }
}
