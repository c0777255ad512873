package io.chiplet.affinity;

import io.chiplet.nativeio.NativePath;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Live tests on this kernel: they need Linux, CPU 1 and NUMA node 0 (the development machine has CPUs 0-1, node 0). */
class ThreadBinderTest
{
    private static final CpuSet CPU_1 = CpuSet.of(1);

    @BeforeAll
    static void needsCpu1()
    {
        assumeTrue(PinnableCpus.live().cpus().contains(1), "needs CPU 1 allowed");
    }

    /** Runs {@code task} on a fresh platform thread (a pin applies to a virtual thread's carrier) and waits. */
    private static void onPlatformThread(Runnable task)
            throws InterruptedException, ExecutionException, TimeoutException
    {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                task.run();
                done.complete(null);
            }
            catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        done.get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void bindsTheMaskAndRestoresTheOneBefore(String backend)
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live(backend);
        PreparedAffinity target = binder.prepare(CPU_1, Optional.empty());
        onPlatformThread(() -> {
            CpuSet before = SchedSyscalls.getAffinity(0);
            BoundThread bound = binder.bindCurrentThread(target);
            assertThat(SchedSyscalls.getAffinity(0)).isEqualTo(CPU_1);
            assertThat(SchedSyscalls.currentCpu()).isEqualTo(1);
            bound.restore();
            assertThat(SchedSyscalls.getAffinity(0)).isEqualTo(before);
            bound.restore();
            assertThat(SchedSyscalls.getAffinity(0)).isEqualTo(before);
            // the same thread binds again after a restore
            assertThat(binder.bindCurrentThread(target)).isSameAs(bound);
            bound.close();
        });
    }

    @Test
    void bindsTheMemoryPolicyAndRestoresTheOneBefore()
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live("ffm");
        PreparedAffinity target = binder.prepare(CPU_1, Optional.of(MemoryPolicy.preferred(0)));
        onPlatformThread(() -> {
            KernelMempolicy before = MempolicySyscalls.getMempolicy();
            try (BoundThread bound = binder.bindCurrentThread(target)) {
                KernelMempolicy during = MempolicySyscalls.getMempolicy();
                assertThat(during.mode()).isEqualTo(MempolicySyscalls.MPOL_PREFERRED);
                BitSet node0 = new BitSet();
                node0.set(0);
                assertThat(during.nodes()).isEqualTo(node0);
            }
            assertThat(MempolicySyscalls.getMempolicy()).isEqualTo(before);
        });
    }

    @Test
    void bindsAnotherThreadByTidAndRestoresIt()
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live("ffm");
        PreparedAffinity target = binder.prepare(CPU_1, Optional.empty());
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        CompletableFuture<Void> release = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform().start(() -> {
            tid.complete(ThreadId.current());
            release.join();
        });
        try {
            int id = tid.get(30, TimeUnit.SECONDS);
            CpuSet before = ThreadId.cpusAllowed(id).orElseThrow();
            BoundThread bound = binder.thread(id);
            bound.bind(target);
            assertThat(ThreadId.cpusAllowed(id)).contains(CPU_1);
            assertThatThrownBy(() -> binder.thread(id).bind(binder.prepare(CPU_1, Optional.of(MemoryPolicy.preferred(0)))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("calling thread only");
            bound.restore();
            assertThat(ThreadId.cpusAllowed(id)).contains(before);
        }
        finally {
            release.complete(null);
            worker.join();
        }
        assertThatThrownBy(() -> binder.thread(Integer.MAX_VALUE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a thread of this process");
    }

    @Test
    void aSecondBindBeforeARestoreIsRefused()
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live("ffm");
        PreparedAffinity target = binder.prepare(CPU_1, Optional.empty());
        onPlatformThread(() -> {
            try (BoundThread bound = binder.bindCurrentThread(target)) {
                assertThatThrownBy(() -> binder.bindCurrentThread(target))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("bound already");
            }
        });
    }

    @Test
    void aTargetOutsideTheAllowedCpusIsRefusedWhenMade()
    {
        ThreadBinder binder = ThreadBinder.live("ffm");
        int outside = PinnableCpus.live().cpus().last() + 1;

        assertThatThrownBy(() -> binder.prepare(CpuSet.of(outside), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Integer.toString(outside));
    }

    @Test
    void maskWordsRoundTripAndTheKernelWidthIsTheNarrowestAccepted()
    {
        CpuSet cpus = CpuSet.parseList("0-3,64,130");
        long[] words = CpuMaskWords.of(cpus);

        assertThat(words).hasSize(3);
        assertThat(CpuMaskWords.toCpuSet(words, words.length)).isEqualTo(cpus);
        // a kernel with 200 CPU ids: one and two words are too narrow (EINVAL), four fit
        assertThat(CpuMaskWords.kernelWords(bytes -> bytes * 8 >= 200 ? 0 : 22)).isEqualTo(4);
        // a kernel that refuses the call altogether: the widest mask, whose calls then report the problem
        assertThat(CpuMaskWords.kernelWords(bytes -> 1)).isEqualTo(CpuMaskWords.MAX_WORDS);
    }

    @Test
    void rawMaskCallsAgreeWithTheCpuSetOnes()
    {
        long[] words = new long[CpuMaskWords.MAX_WORDS];
        int count = SchedSyscalls.getAffinity(0, words);

        assertThat(CpuMaskWords.toCpuSet(words, count)).isEqualTo(SchedSyscalls.getAffinity(0));

        SchedCalls jna = SchedCalls.forPath(new NativePath(NativePath.Kind.JNA, "test"));
        long[] jnaWords = new long[CpuMaskWords.MAX_WORDS];
        int jnaCount = jna.getAffinity(0, jnaWords);
        assertThat(jnaCount).isEqualTo(count);
        assertThat(CpuMaskWords.toCpuSet(jnaWords, jnaCount)).isEqualTo(SchedSyscalls.getAffinity(0));
        jna.setAffinity(0, jnaWords, jnaCount);
        assertThat(SchedSyscalls.getAffinity(0)).isEqualTo(CpuMaskWords.toCpuSet(words, count));
    }
}
