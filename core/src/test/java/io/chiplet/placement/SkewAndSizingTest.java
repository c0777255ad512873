package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SkewAndSizingTest
{
    @Test
    void skewMeasures()
    {
        SkewAnalysis even = SkewAnalysis.of(new long[] {10, 10, 10, 10});
        assertThat(even.gini()).isCloseTo(0, within(1e-9));
        assertThat(even.maxOverMedian()).isEqualTo(1.0);
        assertThat(even.isSkewed()).isFalse();

        SkewAnalysis one = SkewAnalysis.of(new long[] {0, 0, 0, 100});
        // All in one of n: Gini = (n - 1) / n.
        assertThat(one.gini()).isCloseTo(0.75, within(1e-9));
        assertThat(one.maxOverMedian()).isInfinite();

        SkewAnalysis skewed = SkewAnalysis.of(new long[] {1, 2, 3, 4, 40});
        assertThat(skewed.medianBytes()).isEqualTo(3);
        assertThat(skewed.maxOverMedian()).isCloseTo(40.0 / 3, within(1e-9));
        assertThat(skewed.isSkewed()).isTrue();
        assertThatThrownBy(() -> SkewAnalysis.of(new long[0])).hasMessageContaining("at least one");
        assertThatThrownBy(() -> SkewAnalysis.of(new long[] {1, -1})).hasMessageContaining("negative");
    }

    @Test
    void partitionCountIsAMultipleOfChipletsAndTargetComesFromL3PerCore()
    {
        Topology epyc = TestTopologies.dualEpyc7763();
        PartitionSizing sizing = PartitionSizing.of(epyc, epyc.allowed(), OptionalLong.of(10L << 30));
        // 32 MiB L3 over 8 cores: 4 MiB per partition; 10 GiB / 4 MiB = 2560, a multiple of 16 chiplets.
        assertThat(sizing.targetBytes()).isEqualTo(4L << 20);
        assertThat(sizing.partitions()).isEqualTo(2560);
        assertThat(sizing.partitions() % 16).isZero();

        // Little data: three per core (128 cores), two per core for RDD stages.
        PartitionSizing small = PartitionSizing.of(epyc, epyc.allowed(), OptionalLong.of(1L << 20));
        assertThat(small.partitions()).isEqualTo(384);
        assertThat(small.rddPartitions()).isEqualTo(256);
        assertThat(small.skewThresholdBytes()).isEqualTo(16L << 20);

        Topology snc = TestTopologies.cascadeLakeSnc2();
        PartitionSizing sncSizing = PartitionSizing.of(snc, CpuSet.parseList("0-9"), OptionalLong.of(1000L << 20));
        // CPUs 0-9 touch all four chiplets; 13.75 MiB over 10 cores rounds down to 1 MiB.
        assertThat(sncSizing.chiplets()).isEqualTo(4);
        assertThat(sncSizing.targetBytes()).isEqualTo(1L << 20);
        assertThat(sncSizing.partitions()).isEqualTo(1000);
        assertThat(PartitionSizing.of(snc, snc.allowed(), OptionalLong.of(1L << 50)).partitions()).isEqualTo(100_000);
    }

    @Test
    void roundingHelpers()
    {
        assertThat(PartitionSizing.floorPowerOfTwo(1)).isEqualTo(1);
        assertThat(PartitionSizing.floorPowerOfTwo(20)).isEqualTo(16);
        assertThat(PartitionSizing.ceilPowerOfTwo(20)).isEqualTo(32);
        assertThat(PartitionSizing.ceilPowerOfTwo(16)).isEqualTo(16);
        assertThat(PartitionSizing.roundUpToMultiple(17, 16)).isEqualTo(32);
        assertThat(PartitionSizing.roundUpToMultiple(0, 16)).isEqualTo(0);
    }

    @Test
    void bytes()
    {
        assertThat(Bytes.parse("64MiB")).isEqualTo(64L << 20);
        assertThat(Bytes.parse("1GiB")).isEqualTo(1L << 30);
        assertThat(Bytes.parse("1g")).isEqualTo(1L << 30);
        assertThat(Bytes.parse("2GB")).isEqualTo(2_000_000_000L);
        assertThat(Bytes.parse("4096")).isEqualTo(4096);
        assertThatThrownBy(() -> Bytes.parse("lots")).hasMessageContaining("\"lots\"").hasMessageContaining("64MiB");
        assertThatThrownBy(() -> Bytes.parse("99999999999TiB")).hasMessageContaining("too large");
        assertThat(Bytes.format(32L << 20)).isEqualTo("32 MiB");
        assertThat(Bytes.format(28160L << 10)).isEqualTo("27.5 MiB");
        assertThat(Bytes.format(1000)).isEqualTo("1000 B");
    }
}
