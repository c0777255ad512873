package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Live tests of {@link ThreadBinder} on this kernel, with each pinning backend: the calling thread and another thread
 * bound, masks read back through the binder and in {@code /proc/self/task/<tid>/status}, and the errors. They need
 * Linux and CPU 1 (the development machine has CPUs 0-1).
 */
class ThreadBinderLiveTest
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
        assumeTrue(PinnableCpus.live().cpus().contains(1), "needs CPU 1 allowed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void boundThreadRunsOnItsCpuAndProcSaysSo(String backend)
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live(backend);
        PreparedAffinity cpu1 = binder.prepare(CPU_1, Optional.empty());
        // A fresh thread, so nothing the test runner does with its own thread matters.
        CompletableFuture.runAsync(() -> {
            int tid = ThreadId.current();
            CpuSet before = ThreadId.cpusAllowed(tid).orElseThrow();
            assertThat(binder.currentMask()).isEqualTo(before);
            try (BoundThread bound = binder.bindCurrentThread(cpu1)) {
                assertThat(bound.tid()).isEqualTo(tid);
                assertThat(bound.isBound()).isTrue();
                assertThat(SchedSyscalls.getcpu().cpu()).isEqualTo(1);
                assertThat(SchedSyscalls.currentCpu()).isEqualTo(1);
                assertThat(ThreadId.cpusAllowed(tid)).contains(CPU_1);
                assertThat(binder.currentMask()).isEqualTo(CPU_1);
                assertThat(binder.maskOf(tid)).isEqualTo(CPU_1);
            }
            assertThat(ThreadId.cpusAllowed(tid)).contains(before);
            assertThat(binder.currentMask()).isEqualTo(before);
        }, ThreadBinderLiveTest::platformThread).get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "openhft"})
    void bindsAnotherThreadByTid(String backend)
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live(backend);
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
        assertThat(binder.maskOf(tid.get())).isEqualTo(before);
        BoundThread handle = binder.thread(tid.get());
        handle.bind(binder.prepare(CPU_1, Optional.empty()));
        assertThat(handle.tid()).isEqualTo(tid.get());
        assertThat(ThreadId.cpusAllowed(tid.get())).contains(CPU_1);
        assertThat(binder.maskOf(tid.get())).isEqualTo(CPU_1);
        pinned.countDown();
        worker.join(10_000);
        assertThat(cpuAfterPin.get()).isEqualTo(1);
        // The thread ended: restoring it is not an error.
        handle.restore();
    }

    @Test
    void restoresAnotherThreadsMask()
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live();
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
        try (BoundThread bound = binder.thread(tid.get())) {
            bound.bind(binder.prepare(CPU_1, Optional.empty()));
            assertThat(ThreadId.cpusAllowed(tid.get())).contains(CPU_1);
        }
        assertThat(ThreadId.cpusAllowed(tid.get())).contains(before);
        done.countDown();
        worker.join();
    }

    @Test
    void disallowedCpuIsNamedBeforeAnySyscall()
    {
        ThreadBinder binder = ThreadBinder.live();
        PinnableCpus allowed = binder.pinnable();
        int missing = allowed.present().last() + 6;
        CpuSet before = binder.currentMask();
        assertThatThrownBy(() -> binder.prepare(CpuSet.of(1, missing), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CPU " + missing + " is not allowed for this process (allowed: " + allowed.cpus().toList() + ")")
                .hasMessageContaining("this machine has no such CPU");
        // Nothing was bound: the kernel would have silently taken CPU 1 alone.
        assertThat(binder.currentMask()).isEqualTo(before);
    }

    @Test
    void kernelEinvalBecomesAClearError()
            throws Exception
    {
        // Pretend CPU 4000 is allowed, as if it had gone offline after the check: the kernel's EINVAL is explained.
        CpuSet pretend = CpuSet.range(0, 4000);
        ThreadBinder binder = new ThreadBinder(PinningBackend.fromName("ffm"), new PinnableCpus(pretend, pretend, pretend));
        PreparedAffinity offline = binder.prepare(CpuSet.of(4000), Optional.empty());
        CompletableFuture.runAsync(() -> {
            CpuSet before = binder.currentMask();
            assertThatThrownBy(() -> binder.bindCurrentThread(offline))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot bind to CPUs 4000: ")
                    .hasMessageContaining("the kernel allows none of them for this process now")
                    .hasMessageContaining("sched_setaffinity(tid ")
                    .hasMessageContaining("failed: EINVAL");
            assertThat(binder.currentThread().isBound()).isFalse();
            assertThat(binder.currentMask()).isEqualTo(before);
        }, ThreadBinderLiveTest::platformThread).get(30, TimeUnit.SECONDS);
    }

    @Test
    void threadOfAnotherProcessIsRefused()
    {
        ThreadBinder binder = ThreadBinder.live();
        int notOurs = 1; // init: never a thread of this process
        assertThatThrownBy(() -> binder.thread(notOurs))
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
        int tid = CompletableFuture.supplyAsync(ThreadId::current, ThreadBinderLiveTest::platformThread).get();
        assertThat(tid).isPositive();
        assertThat(ThreadId.current()).isNotEqualTo(tid);
        assertThat(ThreadId.threadsOfThisProcess()).contains(ThreadId.current());
        assertThat(ProcessHandle.current().pid()).isIn(ThreadId.threadsOfThisProcess().stream().map(Integer::longValue).toList());
    }
}
