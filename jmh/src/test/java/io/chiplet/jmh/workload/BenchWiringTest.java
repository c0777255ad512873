package io.chiplet.jmh.workload;

import io.chiplet.affinity.PinnableCpus;
import io.chiplet.affinity.ThreadId;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The harness's binder binds through core's binding API: the masks read back from {@code /proc/self/task/<tid>/status}. */
class BenchWiringTest
{
    @Test
    void theHarnessPlacesWithThePluginsDeclaredMemoryDefaults()
    {
        // memory.bind=true and memory.kind=dram, as PluginSettings declares them and both plugins read them.
        assertThat(BenchWiring.BIND_MEMORY).isTrue();
        assertThat(BenchWiring.MEMORY_KIND).isEqualTo(io.chiplet.topology.MemoryKind.DRAM);
    }

    @Test
    void theBinderBindsTheCallingThreadABindAgainMovesItAndAnUnboundTargetLeavesIt()
            throws Exception
    {
        CpuSet allowed = PinnableCpus.live().cpus();
        assumeTrue(allowed.contains(0) && allowed.contains(1), "needs CPUs 0 and 1 allowed");
        WorkerBinder binder = BenchWiring.binder();
        // A fresh platform thread, as a PlacedWorkers worker is: the test runner's own thread keeps its mask.
        Optional<CpuSet>[] masks = CompletableFuture.supplyAsync(() -> {
            int tid = ThreadId.current();
            Optional<CpuSet> before = ThreadId.cpusAllowed(tid);
            binder.bind(WorkerPlacement.unbound(0));
            Optional<CpuSet> unbound = ThreadId.cpusAllowed(tid);
            binder.bind(onCpus(CpuSet.of(1)));
            Optional<CpuSet> first = ThreadId.cpusAllowed(tid);
            binder.bind(onCpus(CpuSet.of(0)));
            return masks(before, unbound, first, ThreadId.cpusAllowed(tid));
        }, task -> Thread.ofPlatform().start(task)).get(30, TimeUnit.SECONDS);
        assertThat(masks[1]).as("wim: the mask the thread had").isEqualTo(masks[0]);
        assertThat(masks[2]).hasValue(CpuSet.of(1));
        assertThat(masks[3]).hasValue(CpuSet.of(0));
    }

    private static WorkerPlacement onCpus(CpuSet cpus)
    {
        return new WorkerPlacement(0, OptionalInt.empty(), Optional.of(cpus), OptionalInt.empty());
    }

    @SafeVarargs
    private static Optional<CpuSet>[] masks(Optional<CpuSet>... masks)
    {
        return masks;
    }
}
