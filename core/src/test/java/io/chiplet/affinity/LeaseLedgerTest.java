package io.chiplet.affinity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LeaseLedgerTest
{
    private static final Path PATH = Path.of("/tmp/chiplet-leases");
    private static final LeaseScope HOST_A_TMP_1 = new LeaseScope("boot-a", "2049:100", PATH);
    private static final LeaseScope HOST_A_TMP_2 = new LeaseScope("boot-a", "2049:200", PATH);
    private static final LeaseScope HOST_B_TMP_1 = new LeaseScope("boot-b", "2049:100", PATH);

    @TempDir
    Path temp;

    @Test
    void processesThatShareTheDirectoryAreLeftToTheLeases()
    {
        LeaseLedger ledger = new LeaseLedger();
        assertThat(ledger.claim(claim("1", HOST_A_TMP_1, 0))).isEqualTo(LeaseVerdict.SHARED_DIRECTORY);
        // the same directory: the file leases already kept them apart, or shared a chiplet on purpose when all were taken
        LeaseVerdict second = ledger.claim(claim("2", HOST_A_TMP_1, 0));
        assertThat(second.directoryShared()).isTrue();
        assertThat(second.collidesWith(new TreeSet<>(List.of(0)))).isFalse();
    }

    @Test
    void processesOfOneKernelInDifferentDirectoriesAreToldWhatTheOthersHoldAndTheFirstFindingIsFlaggedOnce()
    {
        LeaseLedger ledger = new LeaseLedger();
        ledger.claim(claim("1", HOST_A_TMP_1, 0));
        LeaseVerdict second = ledger.claim(claim("2", HOST_A_TMP_2, 0));
        assertThat(second.unseenChiplets()).containsExactly(0);
        assertThat(second.unseenHolders()).containsExactly("1");
        assertThat(second.firstOnKernel()).isTrue();
        assertThat(second.collidesWith(new TreeSet<>(List.of(0)))).isTrue();
        // it leased again, avoiding chiplet 0: recorded, no collision, not flagged twice
        LeaseVerdict again = ledger.claim(claim("2", HOST_A_TMP_2, 1));
        assertThat(again.collidesWith(new TreeSet<>(List.of(1)))).isFalse();
        assertThat(again.firstOnKernel()).isFalse();
        assertThat(ledger.holders()).isEqualTo(2);
        // a third in yet another directory avoids both
        assertThat(ledger.claim(claim("3", new LeaseScope("boot-a", "2049:300", PATH), 0)).unseenChiplets()).containsExactly(0, 1);
    }

    @Test
    void anotherHostNeverCountsAndAReleasedHolderFreesItsChiplets()
    {
        LeaseLedger ledger = new LeaseLedger();
        ledger.claim(claim("1", HOST_A_TMP_1, 0));
        // the same device and inode numbers on another kernel are another directory, on another host: nothing to avoid
        assertThat(ledger.claim(claim("2", HOST_B_TMP_1, 0)).directoryShared()).isTrue();
        ledger.claim(claim("3", HOST_A_TMP_2, 1));
        ledger.release("1");
        assertThat(ledger.claim(claim("4", HOST_A_TMP_2, 0)).directoryShared()).isTrue();
        assertThat(ledger.claim(claim("5", new LeaseScope("boot-a", "2049:300", PATH), 0)).unseenChiplets()).containsExactly(0, 1);
    }

    @Test
    void theScopeOfADirectoryIsItsKernelAndInode()
            throws IOException
    {
        Path bootId = Files.writeString(temp.resolve("boot_id"), "6a0c7d1e-0000-4000-8000-000000000001\n");
        Path one = Files.createDirectory(temp.resolve("one"));
        Path two = Files.createDirectory(temp.resolve("two"));
        Path link = Files.createSymbolicLink(temp.resolve("link"), one);
        LeaseScope scope = LeaseScope.of(one, bootId).orElseThrow();
        assertThat(scope.kernel()).isEqualTo("6a0c7d1e-0000-4000-8000-000000000001");
        assertThat(scope.sharesLeasesWith(LeaseScope.of(link, bootId).orElseThrow())).isTrue();
        assertThat(scope.sharesLeasesWith(LeaseScope.of(two, bootId).orElseThrow())).isFalse();
        // no boot id (not Linux): nothing to check
        assertThat(LeaseScope.of(one, temp.resolve("missing"))).isEmpty();
        assertThat(LeaseScope.of(one)).isPresent();
        assertThatThrownBy(() -> new LeaseScope(" ", "1:2", PATH)).isInstanceOf(IllegalArgumentException.class);
    }

    private static LeaseClaim claim(String holder, LeaseScope scope, Integer... chiplets)
    {
        return new LeaseClaim(holder, scope, new TreeSet<>(List.of(chiplets)));
    }
}
