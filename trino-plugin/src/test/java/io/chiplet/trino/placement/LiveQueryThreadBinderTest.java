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

/** The real kernel: another thread of this JVM bound by tid, moved, given back its mask; an ended one skipped. */
class LiveQueryThreadBinderTest
{
    @Test
    void bindsMovesAndRestoresAThreadByTid()
            throws Exception
    {
        assumeTrue(NativeAccess.isLinux(), "pinning needs Linux");
        ThreadBinder threads = ThreadBinder.live("ffm");
        CpuSet allowed = threads.allowed().allowed();
        LiveQueryThreadBinder binder = new LiveQueryThreadBinder(threads);
        CompletableFuture<Integer> started = new CompletableFuture<>();
        CompletableFuture<Void> release = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform().name("SplitRunner-test").start(() -> {
            started.complete(ThreadId.current());
            release.join();
        });
        int tid = started.get(30, TimeUnit.SECONDS);
        CpuSet before = ThreadId.cpusAllowed(tid).orElseThrow();
        try {
            assertThat(binder.threads()).contains(new NativeThread(tid, "SplitRunner-tes"));

            Optional<QueryThreadBinder.Binding> binding = binder.bind(tid, CpuSet.of(allowed.last()));
            assertThat(binding).isPresent();
            assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(allowed.last()));
            // Moved to another chiplet: the first restore still gives back the mask of before the first pin.
            assertThat(binder.bind(tid, CpuSet.of(allowed.first()))).isPresent();
            assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(allowed.first()));
            binding.orElseThrow().restore();
            assertThat(ThreadId.cpusAllowed(tid)).contains(before);

            // Pinned again after its restore: as the first time.
            QueryThreadBinder.Binding again = binder.bind(tid, CpuSet.of(allowed.last())).orElseThrow();
            assertThat(ThreadId.cpusAllowed(tid)).contains(CpuSet.of(allowed.last()));
            again.restore();
            assertThat(ThreadId.cpusAllowed(tid)).contains(before);
        }
        finally {
            release.complete(null);
            worker.join();
        }
        // Ended: nothing to bind, nothing thrown. join() returns when the Java thread is done; the native one may
        // linger a moment longer.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ThreadId.isThreadOfThisProcess(tid) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(ThreadId.isThreadOfThisProcess(tid)).as("thread %d ended", tid).isFalse();
        binder.threads();
        assertThat(binder.bind(tid, CpuSet.of(allowed.first()))).isEmpty();
    }
}
