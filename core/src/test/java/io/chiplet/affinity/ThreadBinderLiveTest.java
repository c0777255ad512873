package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Live tests on this kernel: they need Linux and CPU 1 (the development machine has CPUs 0-1). */
class ThreadAffinityTest
{
    private static final CpuSet CPU_1 = CpuSet.of(1);

    // Platform threads: a virtual thread can move between carriers, and a pin applies to the carrier.
    static void platformThread(Runnable task)
    {
        Thread.ofPlatform().start(task);
    }

    @BeforeAll
    static void needsCpu1()
    {
        assumeTrue(AllowedCpus.live().allowed().contains(1), "needs CPU 1 allowed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void pinnedThreadRunsOnItsCpuAndProcSaysSo(String backend)
            throws Exception
    {
        ThreadAffinity affinity = ThreadAffinity.live(backend);
        // A fresh thread, so nothing the test runner does with its own thread matters.
        CompletableFuture.runAsync(() -> {
            int tid = ThreadId.current();
            CpuSet before = ThreadId.cpusAllowed(tid).orElseThrow();
            try (PinnedThread pinned = affinity.pinCurrentThread(CPU_1)) {
                assertThat(pinned.tid()).isEqualTo(tid);
                assertThat(pinned.previous()).isEqualTo(before);
                assertThat(SchedSyscalls.getcpu().cpu()).isEqualTo(1);
                assertThat(SchedSyscalls.currentCpu()).isEqualTo(1);
                assertThat(ThreadId.cpusAllowed(tid)).contains(CPU_1);
                assertThat(affinity.currentAffinity()).isEqualTo(CPU_1);
            }
            assertThat(ThreadId.cpusAllowed(tid)).contains(before);
            assertThat(affinity.currentAffinity()).isEqualTo(before);
        }, ThreadAffinityTest::platformThread).get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void pinsAnotherThreadByTid(String backend)
            throws Exception
    {
        ThreadAffinity affinity = ThreadAffinity.live(backend);
        AtomicInteger tid = new AtomicInteger();
        AtomicInteger cpuAfterPin = new AtomicInteger(-1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch pinned = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            tid.set(ThreadId.current());
            started.countDown();
            try {
                pinned.await();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            // Migration happens at the next scheduling point, which waking from the latch was.
            cpuAfterPin.set(SchedSyscalls.getcpu().cpu());
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        CpuSet before = ThreadId.cpusAllowed(tid.get()).orElseThrow();
        PinnedThread handle = affinity.pinThread(tid.get(), CPU_1);
        assertThat(ThreadId.cpusAllowed(tid.get())).contains(CPU_1);
        assertThat(affinity.affinityOf(tid.get())).isEqualTo(CPU_1);
        assertThat(handle.previous()).isEqualTo(before);
        pinned.countDown();
        worker.join(10_000);
        assertThat(cpuAfterPin.get()).isEqualTo(1);
        // The thread ended: restoring it is not an error.
        handle.close();
    }

    @Test
    void restoresAnotherThreadsMask()
            throws Exception
    {
        ThreadAffinity affinity = ThreadAffinity.live();
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger tid = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            tid.set(ThreadId.current());
            started.countDown();
            try {
                done.await();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await();
        CpuSet before = ThreadId.cpusAllowed(tid.get()).orElseThrow();
        try (PinnedThread _ = affinity.pinThread(tid.get(), CPU_1)) {
            assertThat(ThreadId.cpusAllowed(tid.get())).contains(CPU_1);
        }
        assertThat(ThreadId.cpusAllowed(tid.get())).contains(before);
        done.countDown();
        worker.join();
    }

    @Test
    void disallowedCpuIsNamedBeforeAnySyscall()
    {
        ThreadAffinity affinity = ThreadAffinity.live();
        AllowedCpus allowed = affinity.allowed();
        int missing = allowed.present().last() + 6;
        CpuSet before = affinity.currentAffinity();
        assertThatThrownBy(() -> affinity.pinCurrentThread(CpuSet.of(1, missing)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CPU " + missing + " is not allowed for this process (allowed: " + allowed.allowed().toList() + ")")
                .hasMessageContaining("this machine has no such CPU");
        // Nothing was pinned: the kernel would have silently taken CPU 1 alone.
        assertThat(affinity.currentAffinity()).isEqualTo(before);
    }

    @Test
    void kernelEinvalBecomesAClearError()
    {
        // Pretend CPU 4000 is allowed, as if it had gone offline after the check: the kernel's EINVAL is explained.
        CpuSet pretend = CpuSet.range(0, 4000);
        ThreadAffinity affinity = new ThreadAffinity(PinningBackend.fromName("ffm"), new AllowedCpus(pretend, pretend, pretend));
        assertThatThrownBy(() -> affinity.pinCurrentThread(CpuSet.of(4000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot pin thread")
                .hasMessageContaining("the kernel allows none of them for this process now")
                .hasMessageContaining("sched_setaffinity(tid ")
                .hasMessageContaining("cpus 4000) failed: EINVAL");
    }

    @Test
    void threadOfAnotherProcessIsRefused()
    {
        ThreadAffinity affinity = ThreadAffinity.live();
        int notOurs = 1; // init: never a thread of this process
        assertThatThrownBy(() -> affinity.pinThread(notOurs, CPU_1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("thread 1 is not a thread of this process (no /proc/self/task/1)");
    }

    @Test
    void unknownBackendIsNamed()
    {
        assertThatThrownBy(() -> PinningBackend.fromName("jni"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown pinning backend \"jni\": expected ffm or openhft");
        assertThat(PinningBackend.fromName(" OpenHFT ").name()).isEqualTo("openhft");
    }

    @Test
    void gettidMatchesProc()
            throws Exception
    {
        int tid = CompletableFuture.supplyAsync(ThreadId::current, ThreadAffinityTest::platformThread).get();
        assertThat(tid).isPositive();
        assertThat(ThreadId.current()).isNotEqualTo(tid);
        assertThat(ThreadId.threadsOfThisProcess()).contains(ThreadId.current());
        assertThat(ProcessHandle.current().pid()).isIn(ThreadId.threadsOfThisProcess().stream().map(Integer::longValue).toList());
    }
}
