package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@link ThreadBinder#bindProcess} live: every thread's mask read in {@code /proc/self/task/<tid>/status}. */
class ThreadBinderProcessTest
{
    @Test
    void bindsEveryThreadAndNewThreadsInheritThenRestoresThemAll()
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live();
        assumeTrue(binder.pinnable().cpus().contains(1), "needs CPU 1 allowed");
        CpuSet cpu1 = CpuSet.of(1);
        CpuSet callerBefore = binder.currentMask();
        Map<Integer, CpuSet> before = new HashMap<>();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            ThreadId.cpusAllowed(tid).ifPresent(cpus -> before.put(tid, cpus));
        }

        CountDownLatch stop = new CountDownLatch(1);
        int[] late = new int[1];
        Thread lateThread;
        try (BoundProcess binding = binder.bindProcess(binder.prepare(cpu1, Optional.empty()))) {
            assertThat(binding.cpus()).isEqualTo(cpu1);
            assertThat(binding.threads()).containsAll(before.keySet().stream().filter(ThreadId::isThreadOfThisProcess).toList());
            for (int tid : ThreadId.threadsOfThisProcess()) {
                assertThat(ThreadId.cpusAllowed(tid)).as("thread %d", tid).hasValueSatisfying(cpus -> assertThat(cpus).isEqualTo(cpu1));
            }
            // A thread created now, by a bound thread, inherits the binding without being listed.
            int[] child = CompletableFuture.supplyAsync(
                    () -> new int[] {ThreadId.current(), SchedSyscalls.getcpu().cpu()},
                    task -> Thread.ofPlatform().start(task)).get(10, TimeUnit.SECONDS);
            assertThat(binding.threads()).doesNotContain(child[0]);
            assertThat(child[1]).isEqualTo(1);
            // One that lives on past the restore ...
            CountDownLatch started = new CountDownLatch(1);
            lateThread = Thread.ofPlatform().start(() -> {
                late[0] = ThreadId.current();
                started.countDown();
                try {
                    stop.await();
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ThreadId.cpusAllowed(late[0])).hasValue(cpu1);
        }
        try {
            // ... gets the binding thread's mask of before, and every thread bound its own.
            assertThat(ThreadId.cpusAllowed(late[0])).hasValue(callerBefore);
            for (Map.Entry<Integer, CpuSet> entry : before.entrySet()) {
                ThreadId.cpusAllowed(entry.getKey()).ifPresent(cpus -> assertThat(cpus).as("thread %d", entry.getKey()).isEqualTo(entry.getValue()));
            }
        }
        finally {
            stop.countDown();
            lateThread.join(10_000);
        }
    }

    @Test
    void aMemoryPolicyIsRefusedBeforeAnyThreadIsTouched()
    {
        ThreadBinder binder = ThreadBinder.live();
        CpuSet mask = binder.currentMask();
        PreparedAffinity withMemory = binder.prepare(binder.pinnable().cpus(), Optional.of(MemoryPolicy.preferred(0)));
        assertThatThrownBy(() -> binder.bindProcess(withMemory))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a process binding sets the CPUs only: bind the memory policy on the thread that creates the others");
        assertThat(binder.currentMask()).isEqualTo(mask);
    }
}
