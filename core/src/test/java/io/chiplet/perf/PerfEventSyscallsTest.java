package io.chiplet.perf;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.OptionalInt;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

class PerfEventSyscallsTest
{
    /** Offsets from include/uapi/linux/perf_event.h; a wrong one would silently program another event. */
    @Test
    void attrLayoutMatchesTheKernelHeader()
    {
        assertThat(PerfEventSyscalls.PERF_EVENT_ATTR.byteSize()).isEqualTo(PerfEventSyscalls.PERF_ATTR_SIZE_VER8).isEqualTo(136);
        assertThat(offset("config")).isEqualTo(8);
        assertThat(offset("read_format")).isEqualTo(32);
        assertThat(offset("flags")).isEqualTo(40);
        assertThat(offset("config1")).isEqualTo(56);
        assertThat(offset("config2")).isEqualTo(64);
        assertThat(offset("aux_sample_size")).isEqualTo(112);
        assertThat(offset("config3")).isEqualTo(128);
    }

    @Test
    void counterAttrWritesTheFieldsTheKernelReads()
    {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = PerfEventSyscalls.counterAttr(arena, 4, 0x4044, 0x730000001L, 0, 0xb, PerfEventSyscalls.ATTR_FLAG_DISABLED | PerfEventSyscalls.ATTR_FLAG_EXCLUDE_KERNEL);
            assertThat(attr.get(JAVA_INT, 0)).isEqualTo(4);
            assertThat(attr.get(JAVA_INT, 4)).isEqualTo(136);
            assertThat(attr.get(JAVA_LONG, 8)).isEqualTo(0x4044);
            assertThat(attr.get(JAVA_LONG, 32)).isEqualTo(0xb);
            // disabled is bit 0 and exclude_kernel bit 5 of the bitfield word
            assertThat(attr.get(JAVA_LONG, 40)).isEqualTo(0b10_0001);
            assertThat(attr.get(JAVA_LONG, 56)).isEqualTo(0x730000001L);
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

    private static long offset(String field)
    {
        return PerfEventSyscalls.PERF_EVENT_ATTR.byteOffset(groupElement(field));
    }
}
