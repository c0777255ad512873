package io.chiplet.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ByteSizeTest
{
    @Test
    void theLargestWholeUnitWithOneDecimalAtMost()
    {
        assertThat(ByteSize.rounded(0)).isEqualTo("0 B");
        assertThat(ByteSize.rounded(1280 * 1024)).isEqualTo("1.3 MiB");
        assertThat(ByteSize.rounded(32L << 20)).isEqualTo("32 MiB");
        assertThat(ByteSize.rounded(256L << 30)).isEqualTo("256 GiB");
        // a node's usable memory, just under a whole unit, reads as that unit
        assertThat(ByteSize.rounded((16L << 30) - (1L << 20))).isEqualTo("16 GiB");
        assertThat(ByteSize.rounded((370L << 30) + (1L << 29))).isEqualTo("370.5 GiB");
    }
}
