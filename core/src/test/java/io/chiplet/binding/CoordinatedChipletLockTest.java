package io.chiplet.binding;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.affinity.LeaseLedger;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.TestTopologies;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Executors whose containers each have a private temporary directory (YARN's {@code java.io.tmpdir}, a pod's
 * {@code /tmp}) lease in directories that do not see each other; their application's coordinator keeps them apart.
 */
class CoordinatedChipletLockTest
{
    @TempDir
    Path temp;

    private final Topology topology = TestTopologies.dualEpyc7763();
    private final PlacementDomain share = PlacementDomain.of(topology);
    private final MemoryBinding memory = MemoryBinding.off(topology);

    @Test
    void withoutACoordinatorContainersWithPrivateDirectoriesEachLeaseChipletZero()
    {
        try (ChipletLock first = ChipletLock.acquire(temp.resolve("container-1/tmp/leases"), share, 1, memory, LeaseCoordinator.NONE);
                ChipletLock second = ChipletLock.acquire(temp.resolve("container-2/tmp/leases"), share, 1, memory, LeaseCoordinator.NONE)) {
            // the defect YARN showed: both "exclusive" on chiplet 0
            assertThat(first.share().ids()).containsExactly(0);
            assertThat(second.share().ids()).containsExactly(0);
            assertThat(second.anyShared()).isFalse();
        }
    }

    @Test
    void theApplicationsCoordinatorKeepsThemApartAndFreesAChipletWhenItsHolderGoes()
    {
        LeaseLedger ledger = new LeaseLedger();
        try (ChipletLock first = ChipletLock.acquire(temp.resolve("container-1/tmp/leases"), share, 1, memory, coordinator(ledger, "1"));
                ChipletLock second = ChipletLock.acquire(temp.resolve("container-2/tmp/leases"), share, 2, memory, coordinator(ledger, "2"))) {
            assertThat(first.share().ids()).containsExactly(0);
            assertThat(first.verdict().directoryShared()).isTrue();
            assertThat(second.share().ids()).containsExactly(1, 2);
            assertThat(second.verdict().unseenHolders()).containsExactly("1");
            assertThat(second.verdict().collidesWith(new java.util.TreeSet<>(second.share().ids()))).isFalse();
            ledger.release("1");
        }
        try (ChipletLock third = ChipletLock.acquire(temp.resolve("container-3/tmp/leases"), share, 1, memory, coordinator(ledger, "3"))) {
            // holder 1 released chiplet 0: a new container takes it; holder 2 still holds 1 and 2 in the ledger
            assertThat(third.share().ids()).containsExactly(0);
        }
    }

    @Test
    void whenUnseenProcessesHoldEveryChipletTheLockKeepsItsLeaseAndSaysSo()
    {
        Topology two = TestTopologies.twoChiplets();
        PlacementDomain small = PlacementDomain.of(two);
        LeaseLedger ledger = new LeaseLedger();
        try (ChipletLock first = ChipletLock.acquire(temp.resolve("a"), small, 2, MemoryBinding.off(two), coordinator(ledger, "1"));
                ChipletLock second = ChipletLock.acquire(temp.resolve("b"), small, 1, MemoryBinding.off(two), coordinator(ledger, "2"))) {
            assertThat(first.share().ids()).containsExactly(0, 1);
            assertThat(second.share().ids()).containsExactly(0);
            assertThat(second.verdict().collidesWith(new java.util.TreeSet<>(second.share().ids()))).isTrue();
            assertThat(second.verdict().unseenChiplets()).containsExactly(0, 1);
        }
    }

    private static LeaseCoordinator coordinator(LeaseLedger ledger, String holder)
    {
        return (scope, chiplets) -> {
            synchronized (ledger) {
                LeaseVerdict verdict = ledger.claim(new LeaseClaim(holder, scope, chiplets));
                return verdict;
            }
        };
    }
}
