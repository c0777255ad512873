package io.chiplet.spark.placement;

import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadAffinity;
import io.chiplet.affinity.ThreadId;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real kernel: this thread pinned and its memory policy set, then both given back exactly. */
class LiveThreadBinderTest
{
    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void bindsTheCallingThreadAndRestoresMaskAndMemoryPolicy(String backend)
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        ThreadAffinity affinity = ThreadAffinity.live(backend);
        int cpu = affinity.allowed().allowed().last();
        CpuSet maskBefore = current();
        MemoryPolicy memoryBefore = MemoryPolicy.ofCurrentThread();
        LiveThreadBinder binder = new LiveThreadBinder(affinity, 0);

        ThreadBinder.Binding binding = binder.bind(CpuSet.of(cpu), OptionalInt.of(0));
        try {
            assertThat(binding.tid()).isEqualTo(ThreadId.current());
            assertThat(current()).isEqualTo(CpuSet.of(cpu));
            assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(MemoryPolicy.preferred(0));
        }
        finally {
            binding.restore();
        }
        assertThat(current()).isEqualTo(maskBefore);
        assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(memoryBefore);

        // Without a node the memory policy is not touched at all.
        ThreadBinder.Binding pinnedOnly = binder.bind(CpuSet.of(cpu), OptionalInt.empty());
        assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(memoryBefore);
        pinnedOnly.restore();
        assertThat(current()).isEqualTo(maskBefore);
        // Restoring twice restores once; binding again works as the first time.
        pinnedOnly.restore();
        ThreadBinder.Binding again = binder.bind(CpuSet.of(cpu), OptionalInt.of(0));
        assertThat(current()).isEqualTo(CpuSet.of(cpu));
        again.restore();
        assertThat(current()).isEqualTo(maskBefore);
        assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(memoryBefore);
    }

    @Test
    void aSecondBindBeforeTheRestoreIsRefused()
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        ThreadAffinity affinity = ThreadAffinity.live();
        LiveThreadBinder binder = new LiveThreadBinder(affinity, 0);
        CpuSet cpu = CpuSet.of(affinity.allowed().allowed().first());
        ThreadBinder.Binding binding = binder.bind(cpu, OptionalInt.empty());
        try {
            assertThatThrownBy(() -> binder.bind(cpu, OptionalInt.empty())).hasMessageContaining("bound already");
        }
        finally {
            binding.restore();
        }
    }

    @Test
    void planCpusOutsideTheProcessAreRefusedUpFront()
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        LiveThreadBinder binder = new LiveThreadBinder(ThreadAffinity.live(), 0);
        assertThatThrownBy(() -> binder.check(CpuSet.of(CpuSet.MAX_CPUS - 1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not allowed");
    }

    private static CpuSet current()
    {
        return ThreadId.cpusAllowed(ThreadId.current()).orElseThrow();
    }
}
