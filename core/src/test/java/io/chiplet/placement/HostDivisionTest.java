package io.chiplet.placement;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HostDivisionTest
{
    // One package, four chiplets of 4 cores, one thread each: CPUs 0-3, 4-7, 8-11, 12-15.
    private static final Topology FOUR = SyntheticTopologies.uniform("test", 1, 4, 4, 1, 32L << 20, 1);

    private static final PlacementDomain HOST = PlacementDomain.of(FOUR);

    @Test
    void aJvmOwnsTheHostWhenItsCoresCoverIt()
    {
        assertThat(HostDivision.ownsHost(HOST, 16)).isTrue();
        assertThat(HostDivision.ownsHost(HOST, 15)).isFalse();
        // One chiplet left: nothing to split.
        assertThat(HostDivision.ownsHost(HostDivision.bySequenceNumber(HOST, 1, "0"), 1)).isTrue();
    }

    @Test
    void justEnoughChipletsForItsCores()
    {
        assertThat(HostDivision.chipletsFor(HOST, 1)).isEqualTo(1);
        assertThat(HostDivision.chipletsFor(HOST, 4)).isEqualTo(1);
        assertThat(HostDivision.chipletsFor(HOST, 5)).isEqualTo(2);
        assertThat(HostDivision.chipletsFor(HOST, 64)).isEqualTo(4);
    }

    @Test
    void aJvmWhoseCoresFitTheSmallestChipletBindsItsWholeProcessToOne()
    {
        assertThat(HostDivision.fitsOneChiplet(HOST, 1)).isTrue();
        assertThat(HostDivision.fitsOneChiplet(HOST, 4)).isTrue();
        assertThat(HostDivision.fitsOneChiplet(HOST, 5)).isFalse();
        assertThat(HostDivision.fitsOneChiplet(HOST, 16)).isFalse();
        // CPUs 0-5 allowed: chiplet 1 holds 2 of them, so only 2 cores fit whichever chiplet is leased.
        PlacementDomain uneven = PlacementDomain.of(FOUR, CpuSet.parseList("0-5"));
        assertThat(uneven.smallestChipletCpus()).isEqualTo(2);
        assertThat(HostDivision.fitsOneChiplet(uneven, 2)).isTrue();
        assertThat(HostDivision.fitsOneChiplet(uneven, 3)).isFalse();
        // Cores covering the whole share: the JVM owns it, nothing to lease.
        PlacementDomain oneChiplet = PlacementDomain.of(FOUR, CpuSet.parseList("0-3"));
        assertThat(HostDivision.fitsOneChiplet(oneChiplet, 3)).isTrue();
        assertThat(HostDivision.fitsOneChiplet(oneChiplet, 4)).isFalse();
    }

    @Test
    void aRequestedChipletCountIsCappedAtTheShareAndSaysSo()
    {
        assertThat(HostDivision.chipletsRequested(HOST, OptionalInt.empty())).isEqualTo(new HostDivision.LeaseCount(4, Optional.empty()));
        assertThat(HostDivision.chipletsRequested(HOST, OptionalInt.of(1))).isEqualTo(new HostDivision.LeaseCount(1, Optional.empty()));
        assertThat(HostDivision.chipletsRequested(HOST, OptionalInt.of(4))).isEqualTo(new HostDivision.LeaseCount(4, Optional.empty()));
        assertThat(HostDivision.chipletsRequested(HOST, OptionalInt.of(9)))
                .isEqualTo(new HostDivision.LeaseCount(4, Optional.of("asked for 9 chiplets but this process may use 4: leasing 4")));
        // Within a narrower share the cap is that share's.
        assertThat(HostDivision.chipletsRequested(HostDivision.bySequenceNumber(HOST, 2, "1"), OptionalInt.of(3)).chiplets()).isEqualTo(2);
        assertThatThrownBy(() -> HostDivision.chipletsRequested(HOST, OptionalInt.of(0))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void executorsNumberedInSequenceTakeDifferentChiplets()
    {
        assertThat(HostDivision.bySequenceNumber(HOST, 1, "0").ids()).containsExactly(0);
        assertThat(HostDivision.bySequenceNumber(HOST, 1, "3").ids()).containsExactly(3);
        assertThat(HostDivision.bySequenceNumber(HOST, 2, "1").ids()).containsExactly(2, 3);
        // Wraps when there are more executors than room.
        assertThat(HostDivision.bySequenceNumber(HOST, 2, "2").ids()).containsExactly(0, 1);
        assertThat(HostDivision.bySequenceNumber(HOST, 1, "driver").ids()).hasSize(1);
        assertThatThrownBy(() -> HostDivision.bySequenceNumber(HOST, 5, "1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theShareKeepsOnlyItsChipletsCpus()
    {
        PlacementDomain share = HostDivision.bySequenceNumber(HOST, 2, "1");
        assertThat(share.chiplets()).extracting(Chiplet::id).containsExactly(2, 3);
        assertThat(share.shareCpus()).isEqualTo(CpuSet.range(8, 15));
    }
}
