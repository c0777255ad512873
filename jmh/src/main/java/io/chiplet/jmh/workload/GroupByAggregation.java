package io.chiplet.jmh.workload;

import static java.util.Objects.requireNonNull;

/** {@code SELECT key, sum(value) GROUP BY key} over one worker's slice, into a hash table. */
public final class GroupByAggregation
{
    private GroupByAggregation() {}

    /** Clears {@code table} and aggregates into it. */
    public static LongSumTable aggregate(long[] keys, long[] values, LongSumTable table)
    {
        requireNonNull(table, "table is null");
        if (keys.length != values.length) {
            throw new IllegalArgumentException("keys and values differ in length: " + keys.length + " and " + values.length);
        }
        table.clear();
        for (int i = 0; i < keys.length; i++) {
            table.add(keys[i], values[i]);
        }
        return table;
    }
}
