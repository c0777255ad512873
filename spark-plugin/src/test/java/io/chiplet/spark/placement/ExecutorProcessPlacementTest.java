package io.chiplet.spark.placement;

import io.chiplet.affinity.ChipletLeases;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.affinity.ThreadId;
import io.chiplet.binding.ProcessBinder;
import io.chiplet.binding.RecordingProcessBinder;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;

import static io.chiplet.spark.topology.ExecutorTopologies.topology;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

class ExecutorProcessPlacementTest
{
    // Two NUMA nodes (CPUs 0-3, 4-7): memory is bound only where there is more than one node to choose from.
    private static final Topology FOUR_CHIPLETS = twoNodes(topology(CpuSet.range(0, 7), List.of(
            chiplet(0, 0, CpuSet.range(0, 1)),
            chiplet(1, 0, CpuSet.range(2, 3)),
            chiplet(2, 1, CpuSet.range(4, 5)),
            chiplet(3, 1, CpuSet.range(6, 7)))));

    private static Topology twoNodes(Topology topology)
    {
        List<NumaNode> nodes = List.of(NumaNode.of(0, CpuSet.range(0, 3), 1L << 30, Map.of(0, 10, 1, 20)),
                NumaNode.of(1, CpuSet.range(4, 7), 1L << 30, Map.of(0, 20, 1, 10)));
        return topology.toBuilder().numaNodes(nodes).build();
    }

    @TempDir
    Path leaseDir;

    @Test
    void leasesTheFirstFreeChipletAndBindsTheProcessAndItsMemoryToIt()
    {
        RecordingProcessBinder binder = new RecordingProcessBinder(CpuSet.range(0, 7));
        try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of()), FOUR_CHIPLETS, binder)) {
            assertThat(placement.lease().orElseThrow().chiplet().id()).isZero();
            assertThat(placement.lease().orElseThrow().shared()).isFalse();
            assertThat(binder.bound()).containsExactly(Map.entry(CpuSet.range(0, 1), OptionalInt.of(0)));

            // Every task reports the leased chiplet and the end does nothing to undo.
            TaskPlacement.Handle handle = placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 2, 3));
            assertThat(handle.chiplet()).hasValue(0);
            placement.onTaskEnd(handle);
            assertThat(binder.open()).isOne();
        }
        assertThat(binder.open()).isZero();
        assertThat(holders(0)).isZero();
    }

    @Test
    void underWimTheExecutorLeasesNothingAndBindsNothing()
    {
        RecordingProcessBinder binder = new RecordingProcessBinder(CpuSet.range(0, 7));
        try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of(SparkSettings.POLICY, "wim")), FOUR_CHIPLETS, binder)) {
            assertThat(placement.lease()).isEmpty();
            assertThat(placement.cpus()).isEmpty();
            assertThat(binder.bound()).isEmpty();
            assertThat(List.of(holders(0), holders(1), holders(2), holders(3))).containsOnly(0);
            assertThat(placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 2, 3)).chiplet()).isEmpty();
            // Its metrics and the driver's sizing see every chiplet it may run on.
            assertThat(placement.chipletIds(List.of(0, 1, 2, 3))).containsExactly(0, 1, 2, 3);
            assertThat(placement.summary(FOUR_CHIPLETS).chiplets()).isEqualTo(4);
            // No chiplet of its own: the driver counts the host once for all such executors on it.
            assertThat(placement.holdsOwnChiplets()).isFalse();
        }
        assertThat(binder.open()).isZero();
    }

    @Test
    void winAndWicBindTheWholeLeasedChipletAndItsNodeLikeTheChipletPolicies()
    {
        for (String policy : List.of("win", "wic", "wicp-local", "wicp-mixed", "auto", "adaptive")) {
            RecordingProcessBinder binder = new RecordingProcessBinder(CpuSet.range(0, 7));
            try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of(SparkSettings.POLICY, policy)), FOUR_CHIPLETS, binder)) {
                assertThat(placement.lease().orElseThrow().chiplet().id()).as(policy).isZero();
                assertThat(placement.holdsOwnChiplets()).as(policy).isTrue();
                // wic's one core (CPU 0 alone) would leave a multi-core executor one CPU: the whole chiplet instead.
                assertThat(binder.bound()).as(policy).containsExactly(Map.entry(CpuSet.range(0, 1), OptionalInt.of(0)));
            }
            assertThat(holders(0)).as(policy).isZero();
        }
    }

    @Test
    void memoryStaysUnboundWhenSwitchedOff()
    {
        RecordingProcessBinder binder = new RecordingProcessBinder(CpuSet.range(0, 7));
        try (ExecutorProcessPlacement _ = ExecutorProcessPlacement.create(settings(Map.of(SparkSettings.MEMORY_BIND, "false")), FOUR_CHIPLETS, binder)) {
            assertThat(binder.bound()).containsExactly(Map.entry(CpuSet.range(0, 1), OptionalInt.empty()));
        }
    }

    @Test
    void leasesOnlyChipletsWithCpusThisProcessMayUseAndBindsOnlyThoseCpus()
    {
        // A snapshot of a bigger machine than the one we run on, or a cgroup cpuset holding CPUs 3-4.
        RecordingProcessBinder binder = new RecordingProcessBinder(CpuSet.range(3, 4));
        try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of()), FOUR_CHIPLETS, binder)) {
            assertThat(placement.lease().orElseThrow().chiplet().id()).isEqualTo(1);
            assertThat(placement.cpus().orElseThrow()).isEqualTo(CpuSet.of(3));
            // The driver counts this executor as its one leased chiplet with the one CPU it may use, not the host's four.
            PartitionBasis summary = placement.summary(FOUR_CHIPLETS);
            assertThat(summary.chiplets()).isOne();
            assertThat(summary.cores()).isOne();
            assertThat(summary.chipletL3Bytes()).isEqualTo(placement.lease().orElseThrow().chiplet().l3Bytes());
        }
        RecordingProcessBinder none = new RecordingProcessBinder(CpuSet.range(16, 17));
        assertThatThrownBy(() -> ExecutorProcessPlacement.create(settings(Map.of()), FOUR_CHIPLETS, none))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no chiplet of test holds a CPU this process may use (allowed: 16-17)");
    }

    @Test
    void executorsOnOneHostTakeDistinctChipletsThenShareTheLeastHeld()
            throws Exception
    {
        Topology twoChiplets = topology(CpuSet.range(0, 1), List.of(chiplet(0, 0, CpuSet.of(0)), chiplet(1, 0, CpuSet.of(1))));
        RecordingProcessBinder binder = new RecordingProcessBinder(CpuSet.range(0, 1));
        try (LeaseHolder _ = LeaseHolder.start(leaseDir, 2, 1)) {
            // The other executor holds chiplet 0.
            try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of()), twoChiplets, binder)) {
                assertThat(placement.lease().orElseThrow().chiplet().id()).isEqualTo(1);
                assertThat(placement.lease().orElseThrow().shared()).isFalse();
                assertThat(placement.cpus().orElseThrow()).isEqualTo(CpuSet.of(1));
            }
        }
        try (LeaseHolder _ = LeaseHolder.start(leaseDir, 2, 2)) {
            // Every chiplet is held: share one rather than run unbound.
            try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of()), twoChiplets, binder)) {
                assertThat(placement.lease().orElseThrow().shared()).isTrue();
                assertThat(placement.lease().orElseThrow().otherHolders()).isOne();
                assertThat(placement.onTaskStart(new TaskPlacement.TaskIdentity(0, 0, 0)).chiplet()).hasValue(placement.lease().orElseThrow().chiplet().id());
            }
        }
    }

    @Test
    void refusedBindingReleasesTheLease()
    {
        ProcessBinder refusing = new RecordingProcessBinder(CpuSet.range(0, 7))
        {
            @Override
            public Binding bind(CpuSet cpus, OptionalInt memoryNode)
            {
                throw new IllegalArgumentException("cannot pin thread 42: not permitted");
            }
        };
        assertThatThrownBy(() -> ExecutorProcessPlacement.create(settings(Map.of()), FOUR_CHIPLETS, refusing))
                .hasMessage("cannot pin thread 42: not permitted");
        // Released, and the directory is closed in this JVM: a retry can open it and take chiplet 0.
        assertThat(holders(0)).isZero();
        try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of()), FOUR_CHIPLETS, new RecordingProcessBinder(CpuSet.range(0, 7)))) {
            assertThat(placement.lease().orElseThrow().chiplet().id()).isZero();
        }
    }

    @Test
    void bindsEveryThreadOfThisProcessLiveAndRestoresThemAll()
            throws Exception
    {
        ThreadBinder binder = ThreadBinder.live();
        CpuSet allowed = binder.pinnable().cpus();
        assumeThat(allowed.size()).as("needs two CPUs to bind to one of them").isGreaterThanOrEqualTo(2);
        CpuSet before = binder.currentMask();
        List<Chiplet> chiplets = new ArrayList<>();
        allowed.stream().forEach(cpu -> chiplets.add(chiplet(chiplets.size(), 0, CpuSet.of(cpu))));
        Topology oneCpuChiplets = topology(allowed, chiplets);

        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stop = new CountDownLatch(1);
        int[] lateThread = new int[1];
        Thread late;
        try (ExecutorProcessPlacement placement = ExecutorProcessPlacement.create(settings(Map.of()), oneCpuChiplets, ProcessBinder.live(binder))) {
            CpuSet bound = placement.cpus().orElseThrow();
            assertThat(bound.size()).isOne();
            for (int tid : ThreadId.threadsOfThisProcess()) {
                ThreadId.cpusAllowed(tid).ifPresent(mask -> assertThat(mask).as("thread %d", tid).isEqualTo(bound));
            }
            // A thread started while bound inherits the binding ...
            late = Thread.ofPlatform().start(() -> {
                lateThread[0] = ThreadId.current();
                started.countDown();
                awaitQuietly(stop);
            });
            started.await();
            assertThat(ThreadId.cpusAllowed(lateThread[0])).hasValue(bound);
        }
        try {
            // ... and is released with the others.
            assertThat(ThreadId.cpusAllowed(lateThread[0])).hasValue(before);
            assertThat(binder.currentMask()).isEqualTo(before);
            for (int tid : ThreadId.threadsOfThisProcess()) {
                ThreadId.cpusAllowed(tid).ifPresent(mask -> assertThat(mask).as("thread %d", tid).isEqualTo(before));
            }
        }
        finally {
            stop.countDown();
            late.join();
        }
    }

    private static void awaitQuietly(CountDownLatch latch)
    {
        try {
            latch.await();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private int holders(int chiplet)
    {
        try (ChipletLeases leases = ChipletLeases.open(leaseDir, FOUR_CHIPLETS.chiplets(), FOUR_CHIPLETS)) {
            return leases.holders(chiplet);
        }
    }

    private PlacementSettings settings(Map<String, String> conf)
    {
        Map<String, String> all = new HashMap<>(conf);
        all.put(SparkSettings.MODE, "executor");
        all.put(SparkSettings.LEASE_DIR, leaseDir.toString());
        return ((SparkSettings.Valid) SparkSettings.parse(all)).settings();
    }

    private static Chiplet chiplet(int id, int numaNode, CpuSet cpus)
    {
        return new Chiplet(id, 0, numaNode, cpus, 32L << 20, ChipletBasis.L3);
    }
}
