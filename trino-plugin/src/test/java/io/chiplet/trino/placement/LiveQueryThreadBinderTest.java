package io.chiplet.trino.placement;

import io.chiplet.affinity.ThreadBinder;
import io.chiplet.affinity.ThreadId;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real kernel: another thread of this JVM pinned by tid, moved, given back its mask; an ended one skipped. */
class LiveThreadControlTest
{
    @Test
    void pinsMovesAndRestoresAThreadByTid()
            throws Exception
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        ThreadBinder binder = ThreadBinder.live("ffm");
        CpuSet allowed = binder.allowed().allowed();
        LiveThreadControl control = new LiveThreadControl(binder);
        CompletableFuture<Integer> started = new CompletableFuture<>();
        CompletableFuture<Void> release = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform().name("SplitRunner-test").start(() -> {
            started.complete(ThreadId.current());
            release.join();
        });
        int tid = started.get(30, TimeUnit.SECONDS);
        CpuSet before = ThreadId.cpusAllowed(tid).orElseThrow();
        try {
            assertThat(control.threads()).contains(new NativeThread(tid, "SplitRunner-tes"));

            Optional<ThreadControl.Restore> restore = control.pin(tid, CpuSet.of(allowed.last()));
            assertThat(restore).isPresent();
            assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(allowed.last()));
            // Moved to another chiplet: the first restore still gives back the mask of before the first pin.
            assertThat(control.pin(tid, CpuSet.of(allowed.first()))).isPresent();
            assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(allowed.first()));
            restore.orElseThrow().restore();
            assertThat(ThreadId.cpusAllowed(tid)).contains(before);

            // Pinned again after its restore: as the first time.
            ThreadControl.Restore again = control.pin(tid, CpuSet.of(allowed.last())).orElseThrow();
            assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(allowed.last()));
            again.restore();
            assertThat(ThreadId.cpusAllowed(tid)).contains(before);
        }
        finally {
            release.complete(null);
            worker.join();
        }
        // Ended: nothing to pin, nothing thrown.
        control.threads();
        assertThat(control.pin(tid, CpuSet.of(allowed.first()))).isEmpty();
    }
}
