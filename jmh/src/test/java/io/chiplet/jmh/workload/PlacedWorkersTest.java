package io.chiplet.jmh.workload;

import io.chiplet.placement.WorkerPlacement;
import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlacedWorkersTest
{
    private static final List<WorkerPlacement> TARGETS = List.of(
            new WorkerPlacement(0, OptionalInt.of(0), Optional.of(CpuSet.of(0)), OptionalInt.of(0)),
            new WorkerPlacement(1, OptionalInt.of(1), Optional.of(CpuSet.of(1)), OptionalInt.empty()),
            new WorkerPlacement(2, OptionalInt.empty(), Optional.of(CpuSet.of(2, 3)), OptionalInt.of(1)));

    @Test
    void bindsEachWorkerOnItsOwnThreadAndRunsTheKernelOnEveryWorker()
    {
        Map<String, WorkerPlacement> boundBy = new ConcurrentHashMap<>();
        Map<Integer, String> ranOn = new ConcurrentHashMap<>();
        try (PlacedWorkers workers = new PlacedWorkers(TARGETS, target -> boundBy.put(Thread.currentThread().getName(), target))) {
            long sum = workers.run(worker -> {
                ranOn.put(worker, Thread.currentThread().getName());
                return worker + 1;
            });

            assertThat(sum).isEqualTo(1 + 2 + 3);
            assertThat(workers.run(worker -> 10)).as("workers take more than one run").isEqualTo(30);
        }
        assertThat(ranOn).hasSize(3);
        for (int worker = 0; worker < 3; worker++) {
            assertThat(boundBy.get(ranOn.get(worker))).as("target of the thread that ran worker %d", worker).isEqualTo(TARGETS.get(worker));
        }
    }

    @Test
    void aFailingKernelNamesTheWorkerAndItsTarget()
    {
        try (PlacedWorkers workers = new PlacedWorkers(TARGETS, WorkerBinder.UNBOUND)) {
            assertThatThrownBy(() -> workers.run(worker -> {
                if (worker == 2) {
                    throw new ArithmeticException("boom");
                }
                return 0;
            }))
                    .hasMessage("worker 2 on CPUs 2-3, memory on node 1 failed")
                    .hasCauseInstanceOf(ArithmeticException.class);
            assertThat(workers.run(worker -> 1)).as("the workers survive a failed run").isEqualTo(3);
        }
    }

    @Test
    void aFailedBindFailsEveryRunOfThatWorker()
    {
        WorkerBinder refuses = target -> {
            if (target.cpusToBind().orElseThrow().contains(1)) {
                throw new IllegalStateException("sched_setaffinity failed");
            }
        };
        try (PlacedWorkers workers = new PlacedWorkers(TARGETS, refuses)) {
            for (int run = 0; run < 2; run++) {
                assertThatThrownBy(() -> workers.run(worker -> 0)).hasMessage("worker 1 on CPUs 1 failed").hasRootCauseMessage("sched_setaffinity failed");
            }
        }
    }

    @Test
    void anUnboundWorkerSaysSo()
    {
        try (PlacedWorkers workers = new PlacedWorkers(List.of(WorkerPlacement.unbound(0)), WorkerBinder.UNBOUND)) {
            assertThatThrownBy(() -> workers.run(worker -> {
                throw new ArithmeticException("boom");
            })).hasMessage("worker 0 unbound failed");
        }
    }

    @Test
    void closeStopsTheThreads()
    {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        PlacedWorkers workers = new PlacedWorkers(TARGETS, WorkerBinder.UNBOUND);
        workers.run(worker -> {
            threads.add(Thread.currentThread());
            return 0;
        });

        workers.close();

        assertThat(threads).hasSize(3).noneMatch(Thread::isAlive);
        assertThatThrownBy(() -> workers.run(worker -> 0)).hasMessageContaining("closed");
    }
}
