package io.chiplet.topology;

import java.util.BitSet;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * An immutable set of logical CPU numbers, as the kernel writes them in cpulist ({@code 0-7,64-71})
 * and cpumask ({@code 000000ff,000000ff}) form.
 */
public final class CpuSet
{
    /** The kernel's compile-time maximum (CONFIG_NR_CPUS tops out at 8192); larger numbers are garbage, not CPUs. */
    public static final int MAX_CPUS = 8192;

    private static final CpuSet EMPTY = new CpuSet(new BitSet());

    private final BitSet bits;

    private CpuSet(BitSet bits)
    {
        this.bits = bits;
    }

    public static CpuSet empty()
    {
        return EMPTY;
    }

    public static CpuSet of(int... cpus)
    {
        BitSet bits = new BitSet();
        for (int cpu : cpus) {
            checkCpu(cpu);
            bits.set(cpu);
        }
        return new CpuSet(bits);
    }

    public static CpuSet range(int fromInclusive, int toInclusive)
    {
        checkCpu(fromInclusive);
        checkCpu(toInclusive);
        if (toInclusive < fromInclusive) {
            throw new IllegalArgumentException("empty range " + fromInclusive + "-" + toInclusive);
        }
        BitSet bits = new BitSet();
        bits.set(fromInclusive, toInclusive + 1);
        return new CpuSet(bits);
    }

    public static CpuSet fromBitSet(BitSet bits)
    {
        requireNonNull(bits, "bits is null");
        if (bits.length() > MAX_CPUS) {
            throw new IllegalArgumentException("CPU " + (bits.length() - 1) + " exceeds the maximum of " + (MAX_CPUS - 1));
        }
        return new CpuSet((BitSet) bits.clone());
    }

    /**
     * Parses a Linux cpulist ({@code "0-3,8,10-11"}; {@code ""} or whitespace is the empty set). Strided ranges
     * ({@code 0-8:2}) are not produced by sysfs and are rejected.
     *
     * @throws IllegalArgumentException naming the offending text when it is not a cpulist
     */
    public static CpuSet parseList(String text)
    {
        requireNonNull(text, "text is null");
        BitSet canonical = parseCanonicalList(text);
        if (canonical != null) {
            return new CpuSet(canonical);
        }
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return EMPTY;
        }
        BitSet bits = new BitSet();
        for (String part : trimmed.split(",", -1)) {
            String item = part.strip();
            if (item.isEmpty()) {
                throw new IllegalArgumentException("expected a cpulist like 0-3,8 but found an empty item in " + FileText.quote(text));
            }
            int dash = item.indexOf('-');
            if (dash < 0) {
                bits.set(parseCpu(item, text));
            }
            else {
                int from = parseCpu(item.substring(0, dash), text);
                int to = parseCpu(item.substring(dash + 1), text);
                if (to < from) {
                    throw new IllegalArgumentException("expected a cpulist like 0-3,8 but range " + FileText.quote(item) + " is reversed in " + FileText.quote(text));
                }
                bits.set(from, to + 1);
            }
        }
        return new CpuSet(bits);
    }

    /**
     * The cpulist as the kernel writes it (ASCII digits, ascending {@code a-b} ranges, commas, a final newline) in one
     * pass without allocating strings, since discovery parses hundreds of these; null for anything else, including
     * every malformed list, which {@link #parseList} then parses (or refuses) the general way.
     */
    private static BitSet parseCanonicalList(String text)
    {
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == ' ')) {
            end--;
        }
        if (end == 0) {
            return null;
        }
        BitSet bits = new BitSet();
        int i = 0;
        while (true) {
            int from = 0;
            int start = i;
            while (i < end && text.charAt(i) >= '0' && text.charAt(i) <= '9' && i - start < 5) {
                from = from * 10 + (text.charAt(i++) - '0');
            }
            if (i == start || from >= MAX_CPUS) {
                return null;
            }
            int to = from;
            if (i < end && text.charAt(i) == '-') {
                start = ++i;
                to = 0;
                while (i < end && text.charAt(i) >= '0' && text.charAt(i) <= '9' && i - start < 5) {
                    to = to * 10 + (text.charAt(i++) - '0');
                }
                if (i == start || to >= MAX_CPUS || to < from) {
                    return null;
                }
            }
            bits.set(from, to + 1);
            if (i == end) {
                return bits;
            }
            if (text.charAt(i++) != ',') {
                return null;
            }
        }
    }

    /**
     * Parses a Linux cpumask: comma-separated 32-bit hex words, most significant first ({@code "ff,00000001"}).
     *
     * @throws IllegalArgumentException naming the offending text when it is not a cpumask
     */
    public static CpuSet parseMask(String text)
    {
        requireNonNull(text, "text is null");
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("expected a cpumask of hex words like 000000ff,00000001 but found nothing");
        }
        String[] words = trimmed.split(",", -1);
        if ((long) words.length * 32 > MAX_CPUS) {
            throw new IllegalArgumentException("expected a cpumask of at most " + MAX_CPUS + " CPUs but found " + words.length + " words");
        }
        BitSet bits = new BitSet();
        for (int i = 0; i < words.length; i++) {
            String word = words[i].strip();
            if (word.isEmpty() || word.length() > 8 || !word.chars().allMatch(CpuSet::isAsciiHexDigit)) {
                throw new IllegalArgumentException("expected a cpumask of hex words like 000000ff,00000001 but found " + FileText.quote(text));
            }
            long value = Long.parseLong(word, 16);
            int base = (words.length - 1 - i) * 32;
            for (int bit = 0; bit < 32; bit++) {
                if ((value & (1L << bit)) != 0) {
                    bits.set(base + bit);
                }
            }
        }
        return new CpuSet(bits);
    }

    private static int parseCpu(String item, String whole)
    {
        String s = item.strip();
        // ASCII digits only: Character.isDigit and Integer.parseInt also take other scripts' digits ("\u0663")
        if (s.isEmpty() || s.length() > 5 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("expected a cpulist like 0-3,8 but found " + FileText.quote(whole));
        }
        int cpu = Integer.parseInt(s);
        if (cpu >= MAX_CPUS) {
            throw new IllegalArgumentException("expected CPU numbers below " + MAX_CPUS + " but found " + cpu + " in " + FileText.quote(whole));
        }
        return cpu;
    }

    private static boolean isAsciiHexDigit(int c)
    {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static void checkCpu(int cpu)
    {
        if (cpu < 0 || cpu >= MAX_CPUS) {
            throw new IllegalArgumentException("CPU " + cpu + " is outside 0-" + (MAX_CPUS - 1));
        }
    }

    public boolean isEmpty()
    {
        return bits.isEmpty();
    }

    public int size()
    {
        return bits.cardinality();
    }

    public boolean contains(int cpu)
    {
        return cpu >= 0 && bits.get(cpu);
    }

    public boolean containsAll(CpuSet other)
    {
        BitSet missing = (BitSet) other.bits.clone();
        missing.andNot(bits);
        return missing.isEmpty();
    }

    public boolean intersects(CpuSet other)
    {
        return bits.intersects(other.bits);
    }

    /** Lowest CPU, or -1 when empty. */
    public int first()
    {
        return bits.nextSetBit(0);
    }

    /** Highest CPU, or -1 when empty. */
    public int last()
    {
        return bits.length() - 1;
    }

    public CpuSet union(CpuSet other)
    {
        BitSet result = (BitSet) bits.clone();
        result.or(other.bits);
        return new CpuSet(result);
    }

    public CpuSet intersect(CpuSet other)
    {
        BitSet result = (BitSet) bits.clone();
        result.and(other.bits);
        return new CpuSet(result);
    }

    public CpuSet minus(CpuSet other)
    {
        BitSet result = (BitSet) bits.clone();
        result.andNot(other.bits);
        return new CpuSet(result);
    }

    public IntStream stream()
    {
        return bits.stream();
    }

    public int[] toArray()
    {
        // a plain loop: discovery asks this of every core, and a stream costs more than the walk
        int[] cpus = new int[bits.cardinality()];
        int i = 0;
        for (int cpu = bits.nextSetBit(0); cpu >= 0; cpu = bits.nextSetBit(cpu + 1)) {
            cpus[i++] = cpu;
        }
        return cpus;
    }

    public BitSet toBitSet()
    {
        return (BitSet) bits.clone();
    }

    /** The cpulist form, {@code ""} when empty. */
    public String toList()
    {
        StringBuilder out = new StringBuilder();
        int start = bits.nextSetBit(0);
        while (start >= 0) {
            int end = bits.nextClearBit(start) - 1;
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(start);
            if (end > start) {
                out.append('-').append(end);
            }
            start = bits.nextSetBit(end + 1);
        }
        return out.toString();
    }

    /** The cpumask form with at least one word, as the kernel prints it. */
    public String toMask()
    {
        int words = Math.max(1, (bits.length() + 31) / 32);
        StringBuilder out = new StringBuilder();
        for (int w = words - 1; w >= 0; w--) {
            long value = 0;
            for (int bit = 0; bit < 32; bit++) {
                if (bits.get(w * 32 + bit)) {
                    value |= 1L << bit;
                }
            }
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(String.format("%08x", value));
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object o)
    {
        return o instanceof CpuSet other && bits.equals(other.bits);
    }

    @Override
    public int hashCode()
    {
        return bits.hashCode();
    }

    @Override
    public String toString()
    {
        return toList();
    }
}
