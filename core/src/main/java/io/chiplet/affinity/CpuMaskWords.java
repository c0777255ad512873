package io.chiplet.affinity;

import io.chiplet.nativeio.Errno;
import io.chiplet.topology.CpuSet;

import java.util.Arrays;
import java.util.BitSet;
import java.util.function.LongToIntFunction;

/**
 * CPU masks in the kernel's form ({@code cpu_set_t}: bit {@code c % 64} of 64-bit word {@code c / 64} is CPU
 * {@code c}), and the width of the kernel's own mask. Conversions happen once, where a binding is made; the calls that
 * bind and restore pass the words as they are.
 */
final class CpuMaskWords
{
    /** Words of the largest mask: {@link CpuSet#MAX_CPUS} bits. */
    static final int MAX_WORDS = CpuSet.MAX_CPUS / 64;

    private CpuMaskWords() {}

    /** {@code cpus} as words, as many as its highest CPU needs (at least one). */
    static long[] of(CpuSet cpus)
    {
        long[] words = new long[Math.max(1, (cpus.last() + 64) / 64)];
        for (int cpu : cpus.toArray()) {
            words[cpu >>> 6] |= 1L << (cpu & 63);
        }
        return words;
    }

    /** The CPUs of the first {@code count} words. */
    static CpuSet toCpuSet(long[] words, int count)
    {
        return CpuSet.fromBitSet(BitSet.valueOf(Arrays.copyOf(words, count)));
    }

    /** Whether the first {@code aCount} words of {@code a} and {@code bCount} of {@code b} hold the same CPUs. */
    static boolean same(long[] a, int aCount, long[] b, int bCount)
    {
        for (int i = 0; i < Math.max(aCount, bCount); i++) {
            if ((i < aCount ? a[i] : 0) != (i < bCount ? b[i] : 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The CPUs of both masks into {@code into}, nothing allocated; returns the words written, 0 when no CPU is in both.
     */
    static int intersect(long[] a, int aCount, long[] b, int bCount, long[] into)
    {
        int count = Math.min(aCount, bCount);
        long any = 0;
        for (int i = 0; i < count; i++) {
            into[i] = a[i] & b[i];
            any |= into[i];
        }
        return any == 0 ? 0 : count;
    }

    /**
     * The words of the kernel's CPU mask ({@code nr_cpu_ids} bits rounded up to words), found by asking:
     * {@code sched_getaffinity} refuses ({@code EINVAL}) a buffer narrower than that and copies no more than that into
     * a wider one. {@code getAffinity} makes the call for a buffer of the given bytes and answers 0 or the errno.
     * Reading and restoring a mask of this width is what C code with a right-sized {@code cpu_set_t} does: glibc
     * then has nothing to zero behind the kernel's bytes, and nothing wider is copied either way.
     */
    static int kernelWords(LongToIntFunction getAffinity)
    {
        for (int words = 1; words <= MAX_WORDS; words *= 2) {
            int errno = getAffinity.applyAsInt((long) words * 8);
            if (errno == 0) {
                return words;
            }
            if (errno != Errno.EINVAL) {
                break;
            }
        }
        // Not answerable (seccomp, no such call): the widest mask, which the later calls report on themselves.
        return MAX_WORDS;
    }
}
