package io.chiplet.affinity;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The leases an application's processes hold, kept by its coordinator (Spark's driver), to find processes of one host
 * that cannot see each other's lease directory. Host-wide leases ({@link ChipletLeases}) work only when every process
 * of a host uses one directory; a container with a private temporary directory leases in its own and takes chiplet 0
 * like every other. Processes on one kernel whose {@link LeaseScope}s differ are told which chiplets the others
 * hold, so the application never double-books a chiplet, and the first such finding per kernel is flagged so the
 * coordinator says it once. Other applications on the host stay out of reach: only a shared directory coordinates them.
 *
 * <p>Pure; not thread-safe (the coordinator serialises its messages).
 */
public final class LeaseLedger
{
    private final Map<String, LeaseClaim> claims = new HashMap<>();
    private final Set<String> kernelsFoundApart = new HashSet<>();

    /** Records {@code claim} (replacing its holder's earlier one) and says what its holder cannot see. */
    public LeaseVerdict claim(LeaseClaim claim)
    {
        requireNonNull(claim, "claim is null");
        claims.remove(claim.holder());
        TreeSet<Integer> unseenChiplets = new TreeSet<>();
        TreeSet<String> unseenHolders = new TreeSet<>();
        for (LeaseClaim other : claims.values()) {
            if (other.scope().kernel().equals(claim.scope().kernel()) && !other.scope().sharesLeasesWith(claim.scope())) {
                unseenChiplets.addAll(other.chiplets());
                unseenHolders.add(other.holder());
            }
        }
        claims.put(claim.holder(), claim);
        boolean first = !unseenHolders.isEmpty() && kernelsFoundApart.add(claim.scope().kernel());
        return new LeaseVerdict(unseenChiplets, unseenHolders, first);
    }

    /** The holder is gone (its process ended, or it released its lease): its chiplets are free again. */
    public void release(String holder)
    {
        claims.remove(requireNonNull(holder, "holder is null"));
    }

    /** How many processes hold leases now. */
    public int holders()
    {
        return claims.size();
    }
}
