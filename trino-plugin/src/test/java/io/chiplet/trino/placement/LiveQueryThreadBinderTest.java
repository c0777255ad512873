package io.chiplet.trino.placement;

import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.PinningBackend;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.affinity.ThreadId;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
        CpuSet allowed = threads.pinnable().cpus();
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

    /**
     * After the process's allowed CPUs widened, a thread is bound to a CPU it was not allowed at start: the binder
     * checks targets against the CPUs it was told of last (a kernel-free backend records the masks).
     */
    @Test
    void bindsWithinTheAllowedCpusItFollowed()
    {
        assumeTrue(NativeAccess.isLinux(), "thread ids need Linux");
        Map<Integer, CpuSet> masks = new ConcurrentHashMap<>();
        CpuSet machine = CpuSet.range(0, 3);
        PinningBackend recording = new PinningBackend()
        {
            @Override
            public String name()
            {
                return "recording";
            }

            @Override
            public int currentThreadId()
            {
                return ThreadId.current();
            }

            @Override
            public CpuSet getAffinity(int tid)
            {
                return masks.getOrDefault(tid, machine);
            }

            @Override
            public void setAffinity(int tid, CpuSet cpus)
            {
                masks.put(tid, cpus);
            }
        };
        LiveQueryThreadBinder binder = new LiveQueryThreadBinder(new ThreadBinder(recording, new PinnableCpus(machine, machine, CpuSet.range(0, 1))));
        int tid = ThreadId.current();
        assertThatThrownBy(() -> binder.bind(tid, CpuSet.of(3))).isInstanceOf(IllegalArgumentException.class);

        binder.follow(machine);
        QueryThreadBinder.Binding binding = binder.bind(tid, CpuSet.of(3)).orElseThrow();
        assertThat(masks).containsEntry(tid, CpuSet.of(3));
        binding.restore();
        assertThat(masks).containsEntry(tid, machine);
    }
}
