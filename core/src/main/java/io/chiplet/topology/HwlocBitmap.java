package io.chiplet.topology;

import java.util.BitSet;

import static java.util.Objects.requireNonNull;

/**
 * Parses hwloc's bitmap strings as they appear in XML cpuset attributes: comma-separated 32-bit hex words, most
 * significant first, each with an optional {@code 0x} prefix. hwloc abbreviates a zero word to nothing
 * ({@code "0x00000001,,0x0"}) and writes {@code 0xf...f} as the first word of an infinite set (every bit above
 * the listed words is set), e.g. {@code "0xf...f,0xffff0000"}.
 */
final class HwlocBitmap
{
    private static final String INFINITE_WORD = "0xf...f";
    private static final int WORD_BITS = 32;

    private final BitSet finite;
    private final boolean infinite;
    private final int infiniteFrom;

    private HwlocBitmap(BitSet finite, boolean infinite, int infiniteFrom)
    {
        this.finite = finite;
        this.infinite = infinite;
        this.infiniteFrom = infiniteFrom;
    }

    /**
     * @throws IllegalArgumentException naming the text and the expected form when it is not an hwloc bitmap
     */
    static HwlocBitmap parse(String text)
    {
        requireNonNull(text, "text is null");
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("expected an hwloc bitmap like 0x000000ff,0xffffffff but found nothing");
        }
        String[] words = trimmed.split(",", -1);
        boolean infinite = words[0].strip().equalsIgnoreCase(INFINITE_WORD);
        int first = infinite ? 1 : 0;
        int finiteWords = words.length - first;
        if ((long) finiteWords * WORD_BITS > CpuSet.MAX_CPUS) {
            throw new IllegalArgumentException("expected an hwloc bitmap of at most " + CpuSet.MAX_CPUS + " CPUs but found " + finiteWords + " words in " + FileText.quote(text));
        }
        BitSet bits = new BitSet();
        for (int i = first; i < words.length; i++) {
            long value = parseWord(words[i].strip(), text);
            int base = (words.length - 1 - i) * WORD_BITS;
            for (int bit = 0; bit < WORD_BITS; bit++) {
                if ((value & (1L << bit)) != 0) {
                    bits.set(base + bit);
                }
            }
        }
        return new HwlocBitmap(bits, infinite, finiteWords * WORD_BITS);
    }

    private static long parseWord(String word, String whole)
    {
        String digits = word.regionMatches(true, 0, "0x", 0, 2) ? word.substring(2) : word;
        if (word.isEmpty()) {
            // hwloc writes a zero word as nothing between two commas
            return 0;
        }
        if (digits.isEmpty() || digits.length() > 8 || !digits.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
            throw new IllegalArgumentException("expected an hwloc bitmap of 32-bit hex words like 0x000000ff,0xffffffff but found " + FileText.quote(whole));
        }
        return Long.parseLong(digits, 16);
    }

    boolean isInfinite()
    {
        return infinite;
    }

    /** The CPUs of this bitmap that lie in {@code universe}; an infinite tail contributes the universe's CPUs above the listed words. */
    CpuSet within(CpuSet universe)
    {
        BitSet result = (BitSet) finite.clone();
        if (infinite) {
            BitSet tail = universe.toBitSet();
            tail.clear(0, infiniteFrom);
            result.or(tail);
        }
        result.and(universe.toBitSet());
        return CpuSet.fromBitSet(result);
    }

    /** The listed bits only, ignoring any infinite tail. */
    CpuSet finitePart()
    {
        return CpuSet.fromBitSet(finite);
    }
}
