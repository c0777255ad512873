package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostSharesTest
{
    // One package, four chiplets of 4 cores, one thread each: CPUs 0-3, 4-7, 8-11, 12-15.
    private static final Topology FOUR = SyntheticTopologies.uniform("test", 1, 4, 4, 1, 32L << 20, 1);

    @Test
    void aJvmOwnsTheHostWhenItsCoresCoverIt()
    {
        assertThat(HostShares.ownsHost(FOUR, 16)).isTrue();
        assertThat(HostShares.ownsHost(FOUR, 15)).isFalse();
        assertThat(HostShares.ownsHost(HostShares.confine(FOUR, HostShares.usableChiplets(FOUR).subList(0, 1)), 1)).isTrue();
    }

    @Test
    void justEnoughChipletsForItsCores()
    {
        assertThat(HostShares.chipletsFor(FOUR, 1)).isEqualTo(1);
        assertThat(HostShares.chipletsFor(FOUR, 4)).isEqualTo(1);
        assertThat(HostShares.chipletsFor(FOUR, 5)).isEqualTo(2);
        assertThat(HostShares.chipletsFor(FOUR, 64)).isEqualTo(4);
    }

    @Test
    void executorsNumberedInSequenceTakeDifferentChiplets()
    {
        assertThat(HostShares.bySequenceNumber(FOUR, 1, "0")).extracting(Chiplet::id).containsExactly(0);
        assertThat(HostShares.bySequenceNumber(FOUR, 1, "3")).extracting(Chiplet::id).containsExactly(3);
        assertThat(HostShares.bySequenceNumber(FOUR, 2, "1")).extracting(Chiplet::id).containsExactly(2, 3);
        // Wraps when there are more executors than room.
        assertThat(HostShares.bySequenceNumber(FOUR, 2, "2")).extracting(Chiplet::id).containsExactly(0, 1);
        assertThat(HostShares.bySequenceNumber(FOUR, 1, "driver")).hasSize(1);
        assertThatThrownBy(() -> HostShares.bySequenceNumber(FOUR, 5, "1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void confiningKeepsOnlyTheShare()
    {
        Topology share = HostShares.confine(FOUR, HostShares.bySequenceNumber(FOUR, 2, "1"));
        assertThat(share.chiplets()).extracting(Chiplet::id).containsExactly(2, 3);
        assertThat(share.allowed()).isEqualTo(CpuSet.range(8, 15));
    }
}
