package io.chiplet.perf;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalInt;
import static org.assertj.core.api.Assertions.assertThat;

class PerfEventSyscallsTest
{
    /** Offsets from include/uapi/linux/perf_event.h; a wrong one would silently program another event. */
    @Test
    void counterAttrWritesTheFieldsTheKernelReads()
    {
        byte[] bytes = PerfEventSyscalls.counterAttr(4, 0x4044, 0x730000001L, 0x55, 0xb, PerfEventSyscalls.ATTR_FLAG_DISABLED | PerfEventSyscalls.ATTR_FLAG_EXCLUDE_KERNEL)
                .toBytes();
        ByteBuffer attr = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
        assertThat(bytes).hasSize(136);
        assertThat(attr.getInt(0)).isEqualTo(4);
        assertThat(attr.getInt(4)).isEqualTo(136);
        assertThat(attr.getLong(8)).isEqualTo(0x4044);
        assertThat(attr.getLong(32)).isEqualTo(0xb);
        // disabled is bit 0 and exclude_kernel bit 5 of the bitfield word
        assertThat(attr.getLong(40)).isEqualTo(0b10_0001);
        assertThat(attr.getLong(56)).isEqualTo(0x730000001L);
        assertThat(attr.getLong(64)).isEqualTo(0x55);
        // everything else zero: older kernels accept the larger struct only then
        for (int offset : new int[] {16, 24, 48, 72, 80, 88, 96, 104, 112, 120, 128}) {
            assertThat(attr.getLong(offset)).as("offset %d", offset).isZero();
        }
    }

    @Test
    void syscallNumbersPerArchitecture()
    {
        assertThat(PerfEventSyscalls.perfEventOpenNumber("amd64")).isEqualTo(OptionalInt.of(298));
        assertThat(PerfEventSyscalls.perfEventOpenNumber("aarch64")).isEqualTo(OptionalInt.of(241));
        assertThat(PerfEventSyscalls.perfEventOpenNumber("riscv64")).isEqualTo(OptionalInt.of(241));
        assertThat(PerfEventSyscalls.perfEventOpenNumber("sparcv9")).isEmpty();
    }
}
