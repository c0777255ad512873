package io.chiplet.affinity;

import java.util.SortedSet;
import java.util.TreeSet;

import static java.util.Collections.unmodifiableSortedSet;
import static java.util.Objects.requireNonNull;

/**
 * What one process of an application holds: the chiplets it leased in the lease directory of {@code scope}.
 *
 * @param holder the process, as the application names it (a Spark executor id)
 */
public record LeaseClaim(String holder, LeaseScope scope, SortedSet<Integer> chiplets)
{
    public LeaseClaim
    {
        requireNonNull(holder, "holder is null");
        requireNonNull(scope, "scope is null");
        chiplets = unmodifiableSortedSet(new TreeSet<>(requireNonNull(chiplets, "chiplets is null")));
    }
}
