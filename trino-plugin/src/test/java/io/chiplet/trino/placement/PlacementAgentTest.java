package io.chiplet.trino.placement;

import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import io.chiplet.trino.placement.AgentSnapshot.PlacedThread;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class PlacementAgentTest
{
    // 2 chiplets of 2 cores, no SMT: chiplet 0 = CPUs 0-1, chiplet 1 = CPUs 2-3.
    private static final Topology MACHINE = SyntheticTopologies.uniform("synthetic:4", 1, 2, 2, 1, 16L << 20, 1);
    private static final CpuSet CHIPLET_0 = CpuSet.range(0, 1);
    private static final CpuSet CHIPLET_1 = CpuSet.range(2, 3);

    @Test
    void pinsOnlyQueryThreadsBalancedAcrossChiplets()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder()
                .start(10, "main")
                .start(11, "SplitRunner-0")
                .start(12, "task-processor-")
                .start(13, "20261123_111213")
                .start(14, "SplitRunner-3")
                .start(15, "http-worker-1");
        PlacementAgent agent = agent(Policy.WICP_MIXED, threads);
        agent.pass();

        assertThat(threads.mask(10)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(threads.mask(15)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        Map<CpuSet, Long> perChiplet = List.of(11, 12, 13, 14).stream().collect(Collectors.groupingBy(threads::mask, Collectors.counting()));
        assertThat(perChiplet).containsOnly(Map.entry(CHIPLET_0, 2L), Map.entry(CHIPLET_1, 2L));
        assertThat(agent.snapshot().threads()).extracting(PlacedThread::tid).containsExactly(11, 12, 13, 14);
        assertThat(agent.snapshot().threads()).allSatisfy(thread -> assertThat(thread.cpus()).isEqualTo(threads.mask(thread.tid())));
        assertThat(agent.snapshot().threads().get(2).name()).isEqualTo("20261123_111213");
    }

    @Test
    void keepsUpAsThreadsComeAndGoWithoutRepinningTheRest()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0").start(12, "SplitRunner-1");
        PlacementAgent agent = agent(Policy.WICP_MIXED, threads);
        agent.pass();
        threads.start(13, "SplitRunner-2").start(14, "SplitRunner-3");
        threads.end(11);
        agent.pass();
        agent.pass();

        assertThat(agent.snapshot().threads()).extracting(PlacedThread::tid).containsExactly(12, 13, 14);
        assertThat(threads.bindCalls).containsEntry(12, 1).containsEntry(13, 1).containsEntry(14, 1);
        assertThat(List.of(12, 13, 14).stream().map(threads::mask)).contains(CHIPLET_0, CHIPLET_1);
    }

    @Test
    void aThreadThatStopsBeingAQueryThreadGetsItsMaskBack()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0");
        PlacementAgent agent = agent(Policy.WICP_LOCAL, threads);
        agent.pass();
        assertThat(threads.mask(11)).isEqualTo(CHIPLET_0);
        threads.rename(11, "pool-7-thread-1");
        agent.pass();
        assertThat(threads.mask(11)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(agent.snapshot().threads()).isEmpty();
    }

    @Test
    void closeRestoresEveryThreadAndReleasesWhatTheAgentOwns()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0").start(12, "SplitRunner-1");
        AtomicBoolean released = new AtomicBoolean();
        PlacementAgent agent = new PlacementAgent("test", TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed()), threads, threads,
                Duration.ofMillis(500), 300, List.of(() -> released.set(true)));
        agent.start(Duration.ofMillis(20));
        waitFor(() -> agent.snapshot().threads().size() == 2);
        agent.close();

        assertThat(threads.mask(11)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(threads.mask(12)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(released).isTrue();
        assertThat(agent.snapshot().stopped()).contains("closed");
    }

    @Test
    void aFailureStopsPlacementAndRestoresWhatWasPinned()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0");
        PlacementAgent agent = agent(Policy.WICP_MIXED, threads);
        agent.pass();
        assertThat(threads.mask(11)).isNotEqualTo(FakeQueryThreadBinder.ORIGINAL);
        threads.start(12, "SplitRunner-1").refuse(12);
        agent.pass();

        assertThat(threads.mask(11)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(agent.snapshot().threads()).isEmpty();
        assertThat(agent.snapshot().stopped()).hasValueSatisfying(cause -> assertThat(cause).contains("cannot bind thread 12: not permitted"));
        // Stopped for good: later passes pin nothing.
        agent.pass();
        assertThat(threads.mask(11)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
    }

    @Test
    void aStopReleasesWhatTheAgentOwnsOnce()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0");
        threads.refuse(11);
        java.util.concurrent.atomic.AtomicInteger releases = new java.util.concurrent.atomic.AtomicInteger();
        PlacementAgent agent = new PlacementAgent("test", TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed()), threads, threads,
                Duration.ofMillis(500), 300, List.of(releases::incrementAndGet));
        agent.pass();
        assertThat(agent.snapshot().stopped()).hasValueSatisfying(cause -> assertThat(cause).contains("cannot bind thread 11: not permitted"));
        // The leases go with the stop, not at Trino's shutdown: the host's other JVMs may take the chiplets.
        assertThat(releases).hasValue(1);
        agent.close();
        assertThat(releases).hasValue(1);
    }

    @Test
    void adaptiveSpreadsAThreadWhoseRemoteAccessesStayHigh()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0").start(12, "SplitRunner-1");
        PlacementAgent agent = agent(Policy.ADAPTIVE, threads);
        agent.pass();
        // Spread 1 each: both threads share chiplet 0, as CHARM starts.
        assertThat(threads.mask(11)).isEqualTo(CHIPLET_0);
        assertThat(threads.mask(12)).isEqualTo(CHIPLET_0);
        assertThat(agent.snapshot().adaptation()).allSatisfy(row -> {
            assertThat(row.spread()).isEqualTo(1);
            assertThat(row.signalSource()).isEqualTo("SOFTWARE_FALLBACK");
        });

        // Thread 11 faults far above the threshold (300 per interval, widen above 360) for two intervals in a row.
        threads.remoteEvents(11, 1000);
        agent.pass();
        agent.pass();
        assertThat(agent.snapshot().adaptation().getFirst().spread()).isEqualTo(2);
        assertThat(agent.snapshot().adaptation().getFirst().remoteAccessRate()).contains(1000.0);
        // At spread 2 thread 11 costs both cores of chiplet 0, so thread 12 moves to chiplet 1.
        assertThat(threads.mask(11)).isEqualTo(CHIPLET_0);
        assertThat(threads.mask(12)).isEqualTo(CHIPLET_1);

        agent.close();
        assertThat(threads.openSignals).isEmpty();
    }

    @Test
    void adaptiveKeepsAThreadsSpreadWhileOtherThreadsComeAndGo()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0").start(12, "SplitRunner-1");
        PlacementAgent agent = agent(Policy.ADAPTIVE, threads);
        threads.remoteEvents(11, 1000);
        agent.pass();
        agent.pass();
        assertThat(agent.snapshot().adaptation().getFirst().spread()).isEqualTo(2);

        // A new runner starts at spread 1; thread 11 keeps its spread and its evidence.
        threads.start(13, "SplitRunner-2");
        agent.pass();
        assertThat(agent.snapshot().adaptation()).extracting(AgentSnapshot.ThreadAdaptation::tid, AgentSnapshot.ThreadAdaptation::spread)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(11, 2), org.assertj.core.groups.Tuple.tuple(12, 1), org.assertj.core.groups.Tuple.tuple(13, 1));
        agent.close();
        assertThat(threads.openSignals).isEmpty();
    }

    @Test
    void controlWindowsRunQueryThreadsAsWithoutThePluginAndPlacedWindowsPlaceThemAgain()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0").start(12, "SplitRunner-1");
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.WICP_MIXED, MACHINE.allowed());
        PlacementAgent agent = new PlacementAgent("test", placement, new io.chiplet.affinity.PinnableCpusTracker(placement::allowed), threads, threads,
                Duration.ofMillis(500), 300, List.of(), now::get);
        agent.pass();
        assertThat(agent.armNow()).as("no schedule yet: placed").isEqualTo(io.chiplet.measure.Arm.PLACED);
        assertThat(threads.mask(11)).isNotEqualTo(FakeQueryThreadBinder.ORIGINAL);

        io.chiplet.trino.measure.WindowSchedule schedule = io.chiplet.trino.measure.WindowSchedule.starting(1, 5, 1000, new io.chiplet.measure.Directive(0.5, true), 0);
        long control = java.util.stream.LongStream.range(0, 100).filter(w -> schedule.armOfWindow(w) == io.chiplet.measure.Arm.CONTROL).findFirst().orElseThrow();
        long placed = java.util.stream.LongStream.range(control, 100).filter(w -> schedule.armOfWindow(w) == io.chiplet.measure.Arm.PLACED).findFirst().orElseThrow();
        assertThat(agent.follow(schedule)).isTrue();
        assertThat(agent.follow(schedule)).as("the same version again").isFalse();

        now.set(control * 1000 + 10);
        agent.pass();
        assertThat(threads.mask(11)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(threads.mask(12)).isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        threads.start(13, "SplitRunner-2");
        agent.pass();
        assertThat(threads.mask(13)).as("a thread born in a control window").isEqualTo(FakeQueryThreadBinder.ORIGINAL);
        assertThat(agent.snapshot().threads()).isEmpty();

        now.set(placed * 1000 + 10);
        agent.pass();
        assertThat(List.of(11, 12, 13).stream().map(threads::mask)).doesNotContain(FakeQueryThreadBinder.ORIGINAL);
        assertThat(agent.snapshot().threads()).extracting(PlacedThread::tid).containsExactly(11, 12, 13);

        // The guard's stop: from its window on every window is control.
        agent.follow(schedule.with(new io.chiplet.measure.Directive(0, false), placed + 1));
        now.set((placed + 1) * 1000 + 10);
        agent.pass();
        assertThat(List.of(11, 12, 13).stream().map(threads::mask)).containsOnly(FakeQueryThreadBinder.ORIGINAL);
        now.set((placed + 40) * 1000 + 10);
        agent.pass();
        assertThat(List.of(11, 12, 13).stream().map(threads::mask)).containsOnly(FakeQueryThreadBinder.ORIGINAL);
    }

    /**
     * A cpuset that widens beyond the CPUs of the start (a container started on half of each chiplet, then given them
     * whole): the agent places on the new CPUs and tells the binder, whose targets are checked against them.
     */
    @Test
    void aCpusetWidenedBeyondTheStartIsFollowedByTheBinder()
    {
        FakeQueryThreadBinder threads = new FakeQueryThreadBinder().start(11, "SplitRunner-0").start(12, "SplitRunner-1");
        java.util.concurrent.atomic.AtomicReference<CpuSet> allowed = new java.util.concurrent.atomic.AtomicReference<>(CpuSet.of(0, 2));
        ThreadPlacement placement = TestPlacements.of(MACHINE, Policy.WICP_MIXED, allowed.get());
        PlacementAgent agent = new PlacementAgent("test", placement, new io.chiplet.affinity.PinnableCpusTracker(allowed::get), threads, threads,
                Duration.ofMillis(500), 300, List.of());
        agent.pass();
        assertThat(List.of(11, 12).stream().map(threads::mask)).containsExactly(CpuSet.of(0), CpuSet.of(2));
        assertThat(threads.followed).isEmpty();

        allowed.set(CpuSet.range(0, 3));
        agent.pass();
        assertThat(agent.snapshot().stopped()).isEmpty();
        assertThat(threads.followed).containsExactly(CpuSet.range(0, 3));
        assertThat(List.of(11, 12).stream().map(threads::mask)).containsExactly(CHIPLET_0, CHIPLET_1);
        agent.close();
    }

    private static PlacementAgent agent(Policy policy, FakeQueryThreadBinder threads)
    {
        return new PlacementAgent("test", TestPlacements.of(MACHINE, policy, MACHINE.allowed()), threads, threads, Duration.ofMillis(500), 300, List.of());
    }

    private static void waitFor(java.util.function.BooleanSupplier condition)
    {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.onSpinWait();
        }
    }
}
