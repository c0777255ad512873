package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostSharesTest
{
    // One package, four chiplets of 4 cores, one thread each: CPUs 0-3, 4-7, 8-11, 12-15.
    private static final Topology FOUR = SyntheticTopologies.uniform("test", 1, 4, 4, 1, 32L << 20, 1);

    private static final NodeShare HOST = NodeShare.of(FOUR);

    @Test
    void aJvmOwnsTheHostWhenItsCoresCoverIt()
    {
        assertThat(HostShares.ownsHost(HOST, 16)).isTrue();
        assertThat(HostShares.ownsHost(HOST, 15)).isFalse();
        // One chiplet left: nothing to split.
        assertThat(HostShares.ownsHost(HostShares.bySequenceNumber(HOST, 1, "0"), 1)).isTrue();
    }

    @Test
    void justEnoughChipletsForItsCores()
    {
        assertThat(HostShares.chipletsFor(HOST, 1)).isEqualTo(1);
        assertThat(HostShares.chipletsFor(HOST, 4)).isEqualTo(1);
        assertThat(HostShares.chipletsFor(HOST, 5)).isEqualTo(2);
        assertThat(HostShares.chipletsFor(HOST, 64)).isEqualTo(4);
    }

    @Test
    void aJvmWhoseCoresFitTheSmallestChipletBindsItsWholeProcessToOne()
    {
        assertThat(HostShares.fitsOneChiplet(HOST, 1)).isTrue();
        assertThat(HostShares.fitsOneChiplet(HOST, 4)).isTrue();
        assertThat(HostShares.fitsOneChiplet(HOST, 5)).isFalse();
        assertThat(HostShares.fitsOneChiplet(HOST, 16)).isFalse();
        // CPUs 0-5 allowed: chiplet 1 holds 2 of them, so only 2 cores fit whichever chiplet is leased.
        NodeShare uneven = NodeShare.of(FOUR, CpuSet.parseList("0-5"));
        assertThat(uneven.smallestChipletCpus()).isEqualTo(2);
        assertThat(HostShares.fitsOneChiplet(uneven, 2)).isTrue();
        assertThat(HostShares.fitsOneChiplet(uneven, 3)).isFalse();
        // Cores covering the whole share: the JVM owns it, nothing to lease.
        NodeShare oneChiplet = NodeShare.of(FOUR, CpuSet.parseList("0-3"));
        assertThat(HostShares.fitsOneChiplet(oneChiplet, 3)).isTrue();
        assertThat(HostShares.fitsOneChiplet(oneChiplet, 4)).isFalse();
    }

    @Test
    void aRequestedChipletCountIsCappedAtTheShareAndSaysSo()
    {
        assertThat(HostShares.chipletsRequested(HOST, OptionalInt.empty())).isEqualTo(new HostShares.LeaseCount(4, Optional.empty()));
        assertThat(HostShares.chipletsRequested(HOST, OptionalInt.of(1))).isEqualTo(new HostShares.LeaseCount(1, Optional.empty()));
        assertThat(HostShares.chipletsRequested(HOST, OptionalInt.of(4))).isEqualTo(new HostShares.LeaseCount(4, Optional.empty()));
        assertThat(HostShares.chipletsRequested(HOST, OptionalInt.of(9)))
                .isEqualTo(new HostShares.LeaseCount(4, Optional.of("asked for 9 chiplets but this process may use 4: leasing 4")));
        // Within a narrower share the cap is that share's.
        assertThat(HostShares.chipletsRequested(HostShares.bySequenceNumber(HOST, 2, "1"), OptionalInt.of(3)).chiplets()).isEqualTo(2);
        assertThatThrownBy(() -> HostShares.chipletsRequested(HOST, OptionalInt.of(0))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void executorsNumberedInSequenceTakeDifferentChiplets()
    {
        assertThat(HostShares.bySequenceNumber(HOST, 1, "0").ids()).containsExactly(0);
        assertThat(HostShares.bySequenceNumber(HOST, 1, "3").ids()).containsExactly(3);
        assertThat(HostShares.bySequenceNumber(HOST, 2, "1").ids()).containsExactly(2, 3);
        // Wraps when there are more executors than room.
        assertThat(HostShares.bySequenceNumber(HOST, 2, "2").ids()).containsExactly(0, 1);
        assertThat(HostShares.bySequenceNumber(HOST, 1, "driver").ids()).hasSize(1);
        assertThatThrownBy(() -> HostShares.bySequenceNumber(HOST, 5, "1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theShareKeepsOnlyItsChipletsCpus()
    {
        NodeShare share = HostShares.bySequenceNumber(HOST, 2, "1");
        assertThat(share.chiplets()).extracting(Chiplet::id).containsExactly(2, 3);
        assertThat(share.shareCpus()).isEqualTo(CpuSet.range(8, 15));
    }
}
