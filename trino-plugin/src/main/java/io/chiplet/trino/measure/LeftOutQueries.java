package io.chiplet.trino.measure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** How many queries were left out, by reason, in the order the reasons first occurred. Not thread-safe. */
final class LeftOutQueries
{
    private final Map<LeftOut, Long> counts = new LinkedHashMap<>();

    void add(LeftOut why)
    {
        counts.merge(why, 1L, Long::sum);
    }

    long total()
    {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    Map<LeftOut, Long> byReason()
    {
        return Collections.unmodifiableMap(counts);
    }
}
