package io.chiplet.affinity;

import io.chiplet.topology.Chiplet;

import static java.util.Objects.requireNonNull;

/**
 * One chiplet held through {@link ChipletLeases}.
 *
 * @param shared true when every chiplet was already held and this one is shared with other JVMs
 * @param otherHolders how many other holders (JVMs, or other lease sets) the chiplet had when it was leased
 */
public record ChipletLease(Chiplet chiplet, boolean shared, int otherHolders)
{
    public ChipletLease
    {
        requireNonNull(chiplet, "chiplet is null");
        if (otherHolders < 0) {
            throw new IllegalArgumentException("otherHolders is negative: " + otherHolders);
        }
    }

    /** A line for the log, e.g. "chiplet 2 (CPUs 8-15): shared with 1 other holder; every chiplet was leased". */
    public String describe()
    {
        String head = "chiplet " + chiplet.id() + " (CPUs " + chiplet.cpus().toList() + ")";
        if (!shared) {
            return head + ": exclusive";
        }
        return head + ": shared with " + otherHolders + " other holder" + (otherHolders == 1 ? "" : "s") + "; every chiplet was leased";
    }
}
