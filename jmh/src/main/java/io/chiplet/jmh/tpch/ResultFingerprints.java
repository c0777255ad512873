package io.chiplet.jmh.tpch;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Makes sure every run of a query gave the same result, plugin on or off: a timing of a wrong answer is worth nothing.
 * Each result is reduced to its row count and an order-independent checksum of its rows (queries without
 * {@code ORDER BY} may return their rows in any order), compared with the query's first result.
 */
public final class ResultFingerprints
{
    /** What a result is compared by. */
    public record Fingerprint(long rows, long checksum)
    {
        /**
         * @param rows the result's rows, each a list of column values; values are compared by their text, which the
         *         engines' result types (numbers, decimals, dates, strings) print exactly
         */
        public static Fingerprint of(List<? extends List<?>> rows)
        {
            requireNonNull(rows, "rows is null");
            long checksum = 0;
            for (List<?> row : rows) {
                // A sum of well-mixed row hashes: the same rows in any order give the same checksum.
                checksum += mix(fnv1a(row.toString()));
            }
            return new Fingerprint(rows.size(), checksum);
        }

        @Override
        public String toString()
        {
            return String.format(Locale.ROOT, "%d rows, checksum %016x", rows, checksum);
        }
    }

    private record First(String run, Fingerprint fingerprint) {}

    private final Map<Integer, First> first = new HashMap<>();

    /**
     * Records the query's first result; later ones must match it.
     *
     * @param run which run gave the result, for the message (e.g. "round 2, plugin off")
     * @throws IllegalStateException naming both runs and both fingerprints when they differ
     */
    public void check(int query, String run, Fingerprint fingerprint)
    {
        requireNonNull(run, "run is null");
        requireNonNull(fingerprint, "fingerprint is null");
        First earlier = first.putIfAbsent(query, new First(run, fingerprint));
        if (earlier != null && !earlier.fingerprint().equals(fingerprint)) {
            throw new IllegalStateException("q%d gave different results: %s in %s, %s in %s".formatted(
                    query, earlier.fingerprint(), earlier.run(), fingerprint, run));
        }
    }

    private static long fnv1a(String text)
    {
        long hash = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /** SplitMix64's finalizer: spreads similar rows' hashes so that their sum does not cancel out. */
    private static long mix(long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
