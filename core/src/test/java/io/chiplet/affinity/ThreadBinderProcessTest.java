package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcessBindingTest
{
    @Test
    void bindsEveryThreadAndNewThreadsInheritThenRestores()
            throws Exception
    {
        ThreadAffinity affinity = ThreadAffinity.live();
        assumeTrue(affinity.allowed().allowed().contains(1), "needs CPU 1 allowed");
        CpuSet cpu1 = CpuSet.of(1);
        Map<Integer, CpuSet> before = new HashMap<>();
        for (int tid : ThreadId.threadsOfThisProcess()) {
            ThreadId.cpusAllowed(tid).ifPresent(cpus -> before.put(tid, cpus));
        }

        try (ProcessBinding binding = ProcessBinding.bind(affinity, cpu1)) {
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
        }

        for (Map.Entry<Integer, CpuSet> entry : before.entrySet()) {
            ThreadId.cpusAllowed(entry.getKey()).ifPresent(cpus -> assertThat(cpus).as("thread %d", entry.getKey()).isEqualTo(entry.getValue()));
        }
    }
}
