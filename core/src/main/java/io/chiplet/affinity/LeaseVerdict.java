package io.chiplet.affinity;

import java.util.SortedSet;
import java.util.TreeSet;

import static java.util.Collections.unmodifiableSortedSet;
import static java.util.Objects.requireNonNull;

/**
 * What an application's coordinator ({@link LeaseLedger}) says of a {@link LeaseClaim}: which chiplets other processes
 * of the application hold on the same kernel in a lease directory the claimant cannot see. Empty: the lease
 * directory coordinates the claimant with every process of the application on its host.
 *
 * @param unseenChiplets chiplets held on this kernel by processes whose leases the claimant cannot see: avoid them
 * @param unseenHolders those processes
 * @param firstOnKernel true for the first verdict that found this kernel's processes apart: say so once, there
 */
public record LeaseVerdict(SortedSet<Integer> unseenChiplets, SortedSet<String> unseenHolders, boolean firstOnKernel)
{
    /** Nothing unseen: the lease directory is all the coordination needed. */
    public static final LeaseVerdict SHARED_DIRECTORY = new LeaseVerdict(new TreeSet<>(), new TreeSet<>(), false);

    public LeaseVerdict
    {
        unseenChiplets = unmodifiableSortedSet(new TreeSet<>(requireNonNull(unseenChiplets, "unseenChiplets is null")));
        unseenHolders = unmodifiableSortedSet(new TreeSet<>(requireNonNull(unseenHolders, "unseenHolders is null")));
        if (unseenHolders.isEmpty() && (!unseenChiplets.isEmpty() || firstOnKernel)) {
            throw new IllegalArgumentException("unseen chiplets " + unseenChiplets + " without unseen holders");
        }
    }

    /** Whether every process of the application on this host sees the claimant's lease directory. */
    public boolean directoryShared()
    {
        return unseenHolders.isEmpty();
    }

    /** Whether {@code chiplets} overlap chiplets that unseen processes hold: the claimant must lease again, avoiding them. */
    public boolean collidesWith(SortedSet<Integer> chiplets)
    {
        return chiplets.stream().anyMatch(unseenChiplets::contains);
    }
}
