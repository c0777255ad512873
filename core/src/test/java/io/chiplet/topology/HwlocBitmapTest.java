package io.chiplet.topology;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HwlocBitmapTest
{
    private static final CpuSet UNIVERSE = CpuSet.range(0, 255);

    @Test
    void parsesWordsMostSignificantFirst()
    {
        assertThat(HwlocBitmap.parse("0x000000ff").within(UNIVERSE)).isEqualTo(CpuSet.range(0, 7));
        assertThat(HwlocBitmap.parse("0xffffffff,0xffffffff").within(UNIVERSE)).isEqualTo(CpuSet.range(0, 63));
        assertThat(HwlocBitmap.parse("0x00000001,0x80000000").within(UNIVERSE)).isEqualTo(CpuSet.of(31, 32));
    }

    @Test
    void readsEmptyWordsAsZero()
    {
        // as written for package 1 of the dual EPYC 7763 fixture
        assertThat(HwlocBitmap.parse("0xffffffff,0xffffffff,,0x0").within(UNIVERSE)).isEqualTo(CpuSet.range(64, 127));
        assertThat(HwlocBitmap.parse("0x80000000,,,0x0").within(UNIVERSE)).isEqualTo(CpuSet.of(127));
        assertThat(HwlocBitmap.parse("0x0").within(UNIVERSE)).isEqualTo(CpuSet.empty());
    }

    @Test
    void acceptsWordsWithoutPrefixOrPadding()
    {
        assertThat(HwlocBitmap.parse("f,0").within(UNIVERSE)).isEqualTo(CpuSet.range(32, 35));
        assertThat(HwlocBitmap.parse("0X1").within(UNIVERSE)).isEqualTo(CpuSet.of(0));
    }

    @Test
    void infiniteTailCoversTheUniverseAboveTheListedWords()
    {
        HwlocBitmap bitmap = HwlocBitmap.parse("0xf...f,0xffff0000");
        assertThat(bitmap.isInfinite()).isTrue();
        assertThat(bitmap.within(CpuSet.range(0, 99))).isEqualTo(CpuSet.range(16, 99));
        assertThat(bitmap.finitePart()).isEqualTo(CpuSet.range(16, 31));
        assertThat(HwlocBitmap.parse("0xf...f").within(CpuSet.range(0, 9))).isEqualTo(CpuSet.range(0, 9));
    }

    @Test
    void withinDropsCpusOutsideTheUniverse()
    {
        assertThat(HwlocBitmap.parse("0x000000ff").within(CpuSet.range(4, 20))).isEqualTo(CpuSet.range(4, 7));
    }

    @Test
    void rejectsGarbageNamingTheText()
    {
        for (String garbage : List.of("", "  ", "0xgg", "0x", "0x123456789", "0,1,x", "0xf..f")) {
            assertThatThrownBy(() -> HwlocBitmap.parse(garbage))
                    .as(garbage)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("expected an hwloc bitmap");
        }
        assertThatThrownBy(() -> HwlocBitmap.parse("0x1" + ",0x0".repeat(300)))
                .hasMessageContaining("at most 8192 CPUs");
    }

    @Property(seed = "20261128")
    void roundTripsWhatHwlocWrites(@ForAll @Size(max = 64) Set<@IntRange(max = 1023) Integer> cpus)
    {
        BitSet bits = new BitSet();
        cpus.forEach(bits::set);
        CpuSet expected = CpuSet.fromBitSet(bits);
        assertThat(HwlocBitmap.parse(hwlocString(bits)).within(CpuSet.range(0, 1023))).isEqualTo(expected);
    }

    /** hwloc_bitmap_snprintf's form: 0x-prefixed words, zero words inside the set left empty, "0x0" when empty. */
    static String hwlocString(BitSet bits)
    {
        int words = Math.max(1, (bits.length() + 31) / 32);
        List<String> out = new ArrayList<>();
        for (int w = words - 1; w >= 0; w--) {
            long value = 0;
            for (int bit = 0; bit < 32; bit++) {
                if (bits.get(w * 32 + bit)) {
                    value |= 1L << bit;
                }
            }
            boolean last = w == 0;
            out.add(value == 0 && !last ? "" : String.format("0x%08x", value));
        }
        return String.join(",", out);
    }
}
