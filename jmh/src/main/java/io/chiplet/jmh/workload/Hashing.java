package io.chiplet.jmh.workload;

/** The hash the open-addressing tables share. */
final class Hashing
{
    private Hashing() {}

    /** Murmur3's 64-bit finaliser: every key bit reaches every hash bit, so low bits index well. */
    static long mix(long key)
    {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** The smallest power of two that holds {@code entries} at a load factor of at most one half. */
    static int capacityFor(int entries)
    {
        long wanted = Math.max(2L, 2L * entries);
        long capacity = Long.highestOneBit(wanted - 1) << 1;
        if (capacity > 1 << 30) {
            throw new IllegalArgumentException("too many entries for one table: " + entries);
        }
        return (int) capacity;
    }
}
