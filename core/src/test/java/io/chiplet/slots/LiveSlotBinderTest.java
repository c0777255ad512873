package io.chiplet.slots;

import io.chiplet.affinity.PreparedAffinity;
import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.affinity.ThreadId;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real kernel: this thread pinned and its memory policy set, then both given back exactly. */
class LiveSlotBinderTest
{
    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void bindsTheCallingThreadAndRestoresMaskAndMemoryPolicy(String backend)
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        ThreadBinder core = ThreadBinder.live(backend);
        int cpu = core.pinnable().cpus().last();
        CpuSet maskBefore = current();
        MemoryPolicy memoryBefore = MemoryPolicy.ofCurrentThread();
        LiveSlotBinder binder = new LiveSlotBinder(core);
        PreparedAffinity withNode = binder.prepare(CpuSet.of(cpu), OptionalInt.of(0));
        PreparedAffinity cpusOnly = binder.prepare(CpuSet.of(cpu), OptionalInt.empty());

        SlotBinder.Binding binding = binder.bind(withNode);
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
        SlotBinder.Binding pinnedOnly = binder.bind(cpusOnly);
        assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(memoryBefore);
        pinnedOnly.restore();
        assertThat(current()).isEqualTo(maskBefore);
        // Restoring twice restores once; binding again works as the first time.
        pinnedOnly.restore();
        SlotBinder.Binding again = binder.bind(withNode);
        assertThat(current()).isEqualTo(CpuSet.of(cpu));
        again.restore();
        assertThat(current()).isEqualTo(maskBefore);
        assertThat(MemoryPolicy.ofCurrentThread()).isEqualTo(memoryBefore);
    }

    @Test
    void aSecondBindBeforeTheRestoreIsRefused()
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        ThreadBinder core = ThreadBinder.live("ffm");
        LiveSlotBinder binder = new LiveSlotBinder(core);
        PreparedAffinity cpu = binder.prepare(CpuSet.of(core.pinnable().cpus().first()), OptionalInt.empty());
        SlotBinder.Binding binding = binder.bind(cpu);
        try {
            assertThatThrownBy(() -> binder.bind(cpu)).hasMessageContaining("bound already");
        }
        finally {
            binding.restore();
        }
    }

    @Test
    void planCpusOutsideTheProcessAreRefusedUpFront()
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        LiveSlotBinder binder = new LiveSlotBinder(ThreadBinder.live("ffm"));
        assertThatThrownBy(() -> binder.prepare(CpuSet.of(CpuSet.MAX_CPUS - 1), OptionalInt.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not allowed");
    }

    /** On fresh threads, whose masks it may leave narrowed: a running task moved, and restores within the new CPUs. */
    @Test
    void followsACpusetChange()
            throws Exception
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        CpuSet allowed = PinnableCpus.live().cpus();
        assumeTrue(allowed.size() >= 2, "needs two CPUs");
        int first = allowed.first();
        int last = allowed.last();
        LiveSlotBinder binder = new LiveSlotBinder(ThreadBinder.live("ffm"));
        PreparedAffinity lastCpu = binder.prepare(CpuSet.of(last), OptionalInt.empty());
        CompletableFuture<Integer> bound = new CompletableFuture<>();
        CompletableFuture<Void> moved = new CompletableFuture<>();
        CompletableFuture<CpuSet> restored = new CompletableFuture<>();
        Thread task = Thread.ofPlatform().start(() -> {
            try {
                SlotBinder.Binding binding = binder.bind(lastCpu);
                bound.complete(binding.tid());
                moved.get(30, TimeUnit.SECONDS);
                binding.restore();
                restored.complete(current());
            }
            catch (Throwable t) {
                bound.completeExceptionally(t);
                restored.completeExceptionally(t);
            }
        });
        int tid = bound.get(30, TimeUnit.SECONDS);

        // The cpuset narrowed to the first CPU: the watcher moves the running task to its slot's new CPUs.
        binder.follow(CpuSet.of(first));
        binder.move(tid, binder.prepare(CpuSet.of(first), OptionalInt.empty()));
        assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(first));
        assertThatThrownBy(() -> binder.prepare(CpuSet.of(last), OptionalInt.empty())).hasMessageContaining("not allowed");
        moved.complete(null);

        // Its own mask (all the CPUs) within the first one.
        assertThat(restored.get(30, TimeUnit.SECONDS)).isEqualTo(CpuSet.of(first));
        task.join();
        // A thread that has ended is left alone.
        binder.move(tid, binder.prepare(CpuSet.of(first), OptionalInt.empty()));
    }

    private static CpuSet current()
    {
        return ThreadId.cpusAllowed(ThreadId.current()).orElseThrow();
    }
}
