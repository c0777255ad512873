package io.chiplet.jmh.workload;

import java.util.Arrays;

/**
 * Open-addressing (linear probing) map from long keys to long sums, with a fixed capacity chosen up front so that
 * a measured run never resizes. {@link Long#MIN_VALUE} marks a free slot and cannot be a key.
 */
public final class LongSumTable
{
    static final long EMPTY = Long.MIN_VALUE;

    private final long[] keys;
    private final long[] sums;
    private final int mask;
    private int size;

    public LongSumTable(int maxEntries)
    {
        int capacity = Hashing.capacityFor(maxEntries);
        keys = new long[capacity];
        sums = new long[capacity];
        mask = capacity - 1;
        Arrays.fill(keys, EMPTY);
    }

    public void clear()
    {
        Arrays.fill(keys, EMPTY);
        Arrays.fill(sums, 0);
        size = 0;
    }

    public void add(long key, long value)
    {
        int slot = slot(key);
        if (keys[slot] == EMPTY) {
            if (size == maxEntries()) {
                throw new IllegalStateException("table sized for " + size + " keys is full");
            }
            keys[slot] = key;
            size++;
        }
        sums[slot] += value;
    }

    /** The sum for {@code key}, 0 when it was never added. */
    public long get(long key)
    {
        int slot = slot(key);
        return keys[slot] == EMPTY ? 0 : sums[slot];
    }

    public boolean containsKey(long key)
    {
        return keys[slot(key)] != EMPTY;
    }

    /** How many keys fit without exceeding a load factor of one half. */
    public int maxEntries()
    {
        return (mask + 1) / 2;
    }

    public int size()
    {
        return size;
    }

    /** Order-independent digest of the contents, for a benchmark to hand to a blackhole. */
    public long checksum()
    {
        long checksum = 0;
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != EMPTY) {
                checksum += Hashing.mix(keys[slot]) ^ sums[slot];
            }
        }
        return checksum;
    }

    /** The slot holding {@code key}, or the free slot where it would go. */
    private int slot(long key)
    {
        if (key == EMPTY) {
            throw new IllegalArgumentException("Long.MIN_VALUE cannot be a key");
        }
        int slot = (int) Hashing.mix(key) & mask;
        while (keys[slot] != EMPTY && keys[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }
}
