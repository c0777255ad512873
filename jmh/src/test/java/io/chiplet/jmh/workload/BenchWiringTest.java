package io.chiplet.jmh.workload;

import io.chiplet.affinity.AllowedCpus;
import io.chiplet.affinity.ThreadId;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The harness's pinner binds through core's binding API: the masks read back from {@code /proc/self/task/<tid>/status}. */
class BenchWiringTest
{
    @Test
    void thePinnerBindsTheCallingThreadAndABindAgainMovesIt()
            throws Exception
    {
        CpuSet allowed = AllowedCpus.live().allowed();
        assumeTrue(allowed.contains(0) && allowed.contains(1), "needs CPUs 0 and 1 allowed");
        ThreadPinner pinner = BenchWiring.pinner();
        // A fresh platform thread, as a PlacedWorkers worker is: the test runner's own thread keeps its mask.
        Optional<CpuSet>[] masks = CompletableFuture.supplyAsync(() -> {
            int tid = ThreadId.current();
            pinner.pin(CpuSet.of(1));
            Optional<CpuSet> first = ThreadId.cpusAllowed(tid);
            pinner.pin(CpuSet.of(0));
            return masks(first, ThreadId.cpusAllowed(tid));
        }, task -> Thread.ofPlatform().start(task)).get(30, TimeUnit.SECONDS);
        assertThat(masks[0]).hasValue(CpuSet.of(1));
        assertThat(masks[1]).hasValue(CpuSet.of(0));
    }

    @SafeVarargs
    private static Optional<CpuSet>[] masks(Optional<CpuSet>... masks)
    {
        return masks;
    }
}
