package io.chiplet.jmh.workload;

import io.chiplet.topology.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlacedWorkersTest
{
    private static final List<CpuSet> CPUS = List.of(CpuSet.of(0), CpuSet.of(1), CpuSet.of(2, 3));

    @Test
    void pinsEachWorkerOnItsOwnThreadAndRunsTheKernelOnEveryWorker()
    {
        Map<String, CpuSet> pinnedBy = new ConcurrentHashMap<>();
        Map<Integer, String> ranOn = new ConcurrentHashMap<>();
        try (PlacedWorkers workers = new PlacedWorkers(CPUS, cpus -> pinnedBy.put(Thread.currentThread().getName(), cpus))) {
            long sum = workers.run(worker -> {
                ranOn.put(worker, Thread.currentThread().getName());
                return worker + 1;
            });

            assertThat(sum).isEqualTo(1 + 2 + 3);
            assertThat(workers.run(worker -> 10)).as("workers take more than one run").isEqualTo(30);
        }
        assertThat(ranOn).hasSize(3);
        for (int worker = 0; worker < 3; worker++) {
            assertThat(pinnedBy.get(ranOn.get(worker))).as("CPUs of the thread that ran worker %d", worker).isEqualTo(CPUS.get(worker));
        }
    }

    @Test
    void aFailingKernelNamesTheWorkerAndItsCpus()
    {
        try (PlacedWorkers workers = new PlacedWorkers(CPUS, ThreadPinner.NONE)) {
            assertThatThrownBy(() -> workers.run(worker -> {
                if (worker == 2) {
                    throw new ArithmeticException("boom");
                }
                return 0;
            }))
                    .hasMessage("worker 2 on CPUs 2-3 failed")
                    .hasCauseInstanceOf(ArithmeticException.class);
            assertThat(workers.run(worker -> 1)).as("the workers survive a failed run").isEqualTo(3);
        }
    }

    @Test
    void aFailedPinFailsEveryRunOfThatWorker()
    {
        ThreadPinner refuses = cpus -> {
            if (cpus.contains(1)) {
                throw new IllegalStateException("sched_setaffinity failed");
            }
        };
        try (PlacedWorkers workers = new PlacedWorkers(CPUS, refuses)) {
            for (int run = 0; run < 2; run++) {
                assertThatThrownBy(() -> workers.run(worker -> 0)).hasMessage("worker 1 on CPUs 1 failed").hasRootCauseMessage("sched_setaffinity failed");
            }
        }
    }

    @Test
    void closeStopsTheThreads()
    {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        PlacedWorkers workers = new PlacedWorkers(CPUS, ThreadPinner.NONE);
        workers.run(worker -> {
            threads.add(Thread.currentThread());
            return 0;
        });

        workers.close();

        assertThat(threads).hasSize(3).noneMatch(Thread::isAlive);
        assertThatThrownBy(() -> workers.run(worker -> 0)).hasMessageContaining("closed");
    }
}
