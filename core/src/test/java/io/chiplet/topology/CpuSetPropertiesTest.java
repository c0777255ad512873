package io.chiplet.topology;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class CpuSetPropertiesTest
{
    @Property(seed = "20261128")
    void cpulistRoundTrips(@ForAll @Size(max = 200) List<@IntRange(max = CpuSet.MAX_CPUS - 1) Integer> cpus)
    {
        CpuSet set = of(cpus);

        assertThat(CpuSet.parseList(set.toList())).isEqualTo(set);
        assertThat(CpuSet.parseList(set.toList()).toList()).isEqualTo(set.toList());
    }

    @Property(seed = "20261128")
    void cpumaskRoundTrips(@ForAll @Size(max = 200) List<@IntRange(max = CpuSet.MAX_CPUS - 1) Integer> cpus)
    {
        CpuSet set = of(cpus);

        assertThat(CpuSet.parseMask(set.toMask())).isEqualTo(set);
    }

    @Property(seed = "20261128")
    void kernelStyleCpulistsParse(@ForAll @Size(max = 40) List<@IntRange(max = 300) Integer> cpus)
    {
        // the kernel writes ranges and singles, ascending, comma-separated, with a trailing newline
        CpuSet set = of(cpus);

        assertThat(CpuSet.parseList(set.toList() + "\n")).isEqualTo(set);
        assertThat(set.stream().boxed().toList()).containsExactlyElementsOf(cpus.stream().distinct().sorted().toList());
    }

    @Property(seed = "20261128")
    void cpumaskWithLeadingZeroWordsParses(@ForAll @Size(max = 40) List<@IntRange(max = 300) Integer> cpus, @ForAll @IntRange(max = 6) int zeroWords)
    {
        CpuSet set = of(cpus);

        assertThat(CpuSet.parseMask("00000000,".repeat(zeroWords) + set.toMask() + "\n")).isEqualTo(set);
    }

    @Property(tries = 2000, seed = "20261128")
    void anyTextParsesAsCpulistOrFailsWithIllegalArgument(@ForAll("cpulistLike") String text)
    {
        assertThatCode(() -> {
            try {
                CpuSet.parseList(text);
            }
            catch (IllegalArgumentException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            }
        }).doesNotThrowAnyException();
    }

    @Property(tries = 2000, seed = "20261128")
    void anyTextParsesAsCpumaskOrFailsWithIllegalArgument(@ForAll("cpumaskLike") String text)
    {
        assertThatCode(() -> {
            try {
                CpuSet.parseMask(text);
            }
            catch (IllegalArgumentException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            }
        }).doesNotThrowAnyException();
    }

    @Property(tries = 1000, seed = "20261128")
    void arbitraryUnicodeNeverEscapesAsAnotherException(@ForAll String text)
    {
        assertThatCode(() -> {
            try {
                CpuSet.parseList(text);
            }
            catch (IllegalArgumentException ignored) {
                // the only way to refuse
            }
            try {
                CpuSet.parseMask(text);
            }
            catch (IllegalArgumentException ignored) {
                // the only way to refuse
            }
        }).doesNotThrowAnyException();
    }

    @Provide
    Arbitrary<String> cpulistLike()
    {
        return Arbitraries.strings().withChars("0123456789-,: \n\t+x").ofMaxLength(30);
    }

    @Provide
    Arbitrary<String> cpumaskLike()
    {
        return Arbitraries.strings().withChars("0123456789abcdefABCDEFgx, \n-").ofMaxLength(300);
    }

    private static CpuSet of(List<Integer> cpus)
    {
        BitSet bits = new BitSet();
        cpus.forEach(bits::set);
        return CpuSet.fromBitSet(bits);
    }
}
