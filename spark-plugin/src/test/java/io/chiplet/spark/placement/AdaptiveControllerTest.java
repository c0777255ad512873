package io.chiplet.spark.placement;

import io.chiplet.adaptive.AdaptiveLoop;
import io.chiplet.perf.FakeRemoteAccessSignal;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.slots.FakeSlotBinder;
import io.chiplet.slots.SlotTable;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class AdaptiveControllerTest
{
    private static final long INTERVAL_NANOS = 500_000_000L;
    // Two chiplets of four cores (CPUs 0-3, 4-7), one NUMA node each.
    private static final Topology TOPOLOGY = SyntheticTopologies.uniform("test", 1, 2, 4, 1, 32L << 20, 2);
    private static final int SLOTS = 4;

    private final FakeSlotBinder binder = new FakeSlotBinder(CpuSet.range(0, 7));
    private final AtomicLong remoteEvents = new AtomicLong();
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicReference<SpreadHints> driver = new AtomicReference<>(SpreadHints.NONE);
    private volatile boolean driverDown;
    private final PlacementMetrics metrics = new PlacementMetrics(2);
    private final BoundTaskPlacement placement = adaptivePlacement();
    private final AdaptiveController controller = new AdaptiveController(placement.pool(), () -> placement.targets().orElseThrow(),
            AdaptiveController.spread(settings(), tid -> signal()), this::askDriver, metrics);

    @Test
    void startsConsolidatedOnOneChiplet()
    {
        assertThat(placement.table().slots()).allSatisfy(slot -> assertThat(slot.chiplet()).hasValue(0));
    }

    @Test
    void remoteAccessesAboveTheThresholdWidenTheSpreadAndMoveLaterTasks()
    {
        TaskPlacement.Handle running = placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 0, 1));
        remoteEvents.set(1000);

        controller.interval();
        // CHARM's confirmation: one interval above the band is not enough.
        assertThat(controller.controllerSpread(0)).isEqualTo(1);
        controller.interval();
        assertThat(controller.controllerSpread(0)).isEqualTo(2);
        assertThat(metrics.spread()).isEqualTo(2);
        assertThat(metrics.remoteAccessRate()).isEqualTo(1000.0);
        assertThat(metrics.signalSource()).isEqualTo("software-fallback");
        // The running slot now costs two cores of chiplet 0: the last slot moves to chiplet 1, with its memory.
        assertThat(placement.table().slot(3)).isEqualTo(new SlotTable.Slot(Optional.of(CpuSet.range(4, 7)), OptionalInt.of(1), OptionalInt.of(1)));

        // Below the band the spread narrows again, and the later tasks come back.
        remoteEvents.set(0);
        controller.interval();
        controller.interval();
        assertThat(controller.controllerSpread(0)).isEqualTo(1);
        assertThat(placement.table().slots()).allSatisfy(slot -> assertThat(slot.chiplet()).hasValue(0));
        placement.onTaskEnd(running);
        assertThat(opened).hasValue(1);
    }

    @Test
    void idleSlotsAreNotSteppedAndGoneThreadsCloseTheirSignals()
    {
        TaskPlacement.Handle running = placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 0, 1));
        placement.onTaskEnd(running);
        remoteEvents.set(1000);
        controller.interval();
        controller.interval();
        assertThat(controller.controllerSpread(0)).isEqualTo(1);
        assertThat(opened).hasValue(1);
        controller.close();
        assertThat(closed).hasValue(1);
    }

    @Test
    void driverHintsOverrideTheSpreadOfTheirStage()
    {
        TaskPlacement.Handle heavy = placement.onTaskStart(new TaskPlacement.TaskIdentity(7, 0, 1));
        TaskPlacement.Handle other = placement.onTaskStart(new TaskPlacement.TaskIdentity(8, 0, 2));
        driver.set(new SpreadHints(Map.of(7, 2, 8, 2)));

        controller.interval();
        // Two slots each costing two cores fill chiplet 0: the idle slots go to chiplet 1.
        assertThat(placement.table().slots()).extracting(slot -> slot.chiplet().getAsInt()).containsExactly(0, 0, 1, 1);
        assertThat(metrics.spread()).isEqualTo(2);

        // The driver goes silent: its last hints hold.
        driverDown = true;
        controller.interval();
        assertThat(placement.table().slots()).extracting(slot -> slot.chiplet().getAsInt()).containsExactly(0, 0, 1, 1);
        placement.onTaskEnd(heavy);
        placement.onTaskEnd(other);
    }

    @Test
    void withoutASignalOnlyTheHintsSteer()
    {
        AdaptiveController blind = new AdaptiveController(placement.pool(), () -> placement.targets().orElseThrow(),
                AdaptiveController.spread(settings(), tid -> {
                    throw new IllegalStateException("perf_event_open: EACCES");
                }), this::askDriver, metrics);
        TaskPlacement.Handle running = placement.onTaskStart(new TaskPlacement.TaskIdentity(7, 0, 1));
        driver.set(new SpreadHints(Map.of(7, 2)));
        blind.interval();
        blind.interval();
        assertThat(metrics.remoteAccessRate()).isNaN();
        assertThat(placement.table().slot(3).chiplet()).hasValue(1);
        placement.onTaskEnd(running);
    }

    private SpreadHints askDriver()
    {
        if (driverDown) {
            throw new IllegalStateException("the driver did not answer");
        }
        return driver.get();
    }

    private RemoteAccessSignal signal()
    {
        opened.incrementAndGet();
        return new FakeRemoteAccessSignal(INTERVAL_NANOS, remoteEvents::get, closed::incrementAndGet);
    }

    private static PlacementSettings settings()
    {
        return ((SparkSettings.Valid) SparkSettings.parse(Map.of(SparkSettings.POLICY, "adaptive"))).settings();
    }

    private BoundTaskPlacement adaptivePlacement()
    {
        WorkerPlacements targets = PlacementPlanner.targets(PlacementDomain.of(TOPOLOGY), Policy.ADAPTIVE, SLOTS, MemoryBinding.of(TOPOLOGY, true, MemoryKind.DRAM));
        return BoundTaskPlacement.following(targets, TOPOLOGY.chiplets().stream().map(Chiplet::id).toList(), binder);
    }

    @Test
    void theDaemonSchedulerTicksOnItsOwnThreadUntilCancelled()
            throws InterruptedException
    {
        List<String> threads = new CopyOnWriteArrayList<>();
        AtomicReference<Thread> ticking = new AtomicReference<>();
        AdaptiveLoop.Schedule schedule = AdaptiveController.daemon("chiplet-adaptive-test").every(1_000_000L, () -> {
            threads.add(Thread.currentThread().getName());
            ticking.set(Thread.currentThread());
        });
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (threads.size() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        schedule.cancel();
        assertThat(threads).hasSizeGreaterThanOrEqualTo(2).containsOnly("chiplet-adaptive-test");
        assertThat(ticking.get().isDaemon()).isTrue();
        // Cancelled, the thread ends (within a deadline, not a sleep).
        ticking.get().join(10_000);
        assertThat(ticking.get().isAlive()).isFalse();
    }
}
