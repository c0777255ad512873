package io.chiplet.jmh.workload;

/**
 * HPC Challenge RandomAccess (GUPS): {@code table[r & mask] ^= r} for a pseudo-random stream {@code r}, the
 * HPCC generator (shift left, xor the polynomial 7 when the top bit falls out). Updates race when several workers
 * share one table; HPCC tolerates that (it allows 1% errors), and so do the benchmarks, which only time it.
 */
public final class Gups
{
    static final long POLY = 0x7L;

    private Gups() {}

    /** The generator's next value. */
    public static long next(long value)
    {
        return (value << 1) ^ (value < 0 ? POLY : 0);
    }

    /** A non-zero start for worker {@code worker}, so that workers walk different parts of the stream. */
    public static long seed(int worker)
    {
        long seed = Hashing.mix(0x9e3779b97f4a7c15L * (worker + 1));
        return seed == 0 ? 1 : seed;
    }

    /**
     * Applies {@code updates} updates starting after {@code seed}.
     *
     * @param table length a power of two
     * @return the generator's last value, which continues the stream
     */
    public static long update(long[] table, long seed, long updates)
    {
        if (Integer.bitCount(table.length) != 1) {
            throw new IllegalArgumentException("GUPS table length must be a power of two but was " + table.length);
        }
        long mask = table.length - 1;
        long value = seed;
        for (long i = 0; i < updates; i++) {
            value = next(value);
            table[(int) (value & mask)] ^= value;
        }
        return value;
    }
}
