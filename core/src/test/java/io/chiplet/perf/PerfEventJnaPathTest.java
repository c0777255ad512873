package io.chiplet.perf;

import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativeCallException;
import io.chiplet.nativeio.NativePath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The JNA path (JDK 17 and 21) of the perf_event family against the real kernel (the rest: affinity's JnaPathTest). */
class PerfEventJnaPathTest
{
    private static final NativePath JNA = new NativePath(NativePath.Kind.JNA, "test");

    @BeforeAll
    static void linux()
    {
        assumeTrue(NativeAccess.isLinux(), "the syscalls exist on Linux only");
    }

    @Test
    void perfEventsOpenReadAndClose()
    {
        PerfEventCalls jna = PerfEventCalls.forPath(JNA);
        int fd;
        try {
            fd = jna.perfEventOpen(PerfEventSyscalls.counterAttr(PerfEventSyscalls.PERF_TYPE_SOFTWARE, PerfEventSyscalls.PERF_COUNT_SW_TASK_CLOCK, 0, 0, 0,
                    PerfEventSyscalls.ATTR_FLAG_EXCLUDE_KERNEL | PerfEventSyscalls.ATTR_FLAG_EXCLUDE_HV), 0, -1, -1);
        }
        catch (NativeCallException e) {
            assumeTrue(false, "perf_event_open refused here (" + e.getMessage() + ")");
            return;
        }
        try {
            long[] value = new long[1];
            long spin = 0;
            for (int i = 0; i < 1_000_000; i++) {
                spin += i ^ spin;
            }
            assertThat(jna.read(fd, value)).isEqualTo(8);
            assertThat(value[0]).as("task clock after %d", spin).isPositive();
        }
        finally {
            jna.close(fd);
        }
        assertThatThrownBy(() -> jna.close(fd))
                .isInstanceOfSatisfying(NativeCallException.class, e -> assertThat(e.errnoName()).isEqualTo("EBADF"));
    }
}
