package io.chiplet.adaptive;

import io.chiplet.adaptive.AdaptiveSpread.Worker;
import io.chiplet.perf.FakeRemoteAccessSignal;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.placement.SpreadController;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The loop with fake signals (each sample one interval long, counting what {@link #fills} says) and a scheduler the
 * test ticks by hand: no clock, no sleep.
 */
class AdaptiveLoopTest
{
    private static final long INTERVAL = SpreadController.Settings.CHARM_INTERVAL_NANOS;

    private final Map<Integer, Long> fills = new HashMap<>();
    private final Set<Integer> open = new HashSet<>();
    private final Set<Integer> failing = new HashSet<>();
    private final List<int[]> applied = new ArrayList<>();
    private final List<String> openFailures = new ArrayList<>();
    private final List<RuntimeException> stops = new ArrayList<>();
    private final ManualScheduler scheduler = new ManualScheduler();
    private final AdaptiveLoop loop = new AdaptiveLoop(new AdaptiveSpread(INTERVAL, 300, this::open), (round, step) -> applied.add(step.spreads()),
            new AdaptiveLoop.Events()
            {
                @Override
                public void openFailed(String failure, boolean firstOfLoop)
                {
                    openFailures.add((firstOfLoop ? "first " : "") + failure);
                }

                @Override
                public void stopped(RuntimeException cause)
                {
                    stops.add(cause);
                }
            });
    private AdaptiveLoop.Round round = new AdaptiveLoop.Round(List.of(new Worker(0, 101, true), new Worker(1, 102, true)), 4);

    /** A scheduler the test ticks: it holds the tick and whether the schedule was stopped. */
    private static final class ManualScheduler
            implements AdaptiveLoop.Scheduler
    {
        long intervalNanos;
        Runnable tick;
        boolean cancelled;

        @Override
        public AdaptiveLoop.Schedule every(long intervalNanos, Runnable tick)
        {
            this.intervalNanos = intervalNanos;
            this.tick = tick;
            return () -> cancelled = true;
        }

        void tick(int times)
        {
            for (int i = 0; i < times; i++) {
                tick.run();
            }
        }
    }

    private RemoteAccessSignal open(int tid)
    {
        if (failing.contains(tid)) {
            throw new IllegalStateException("perf_event_open: EACCES");
        }
        open.add(tid);
        return new FakeRemoteAccessSignal(INTERVAL, () -> fills.getOrDefault(tid, 0L), () -> open.remove(tid));
    }

    @Test
    void eachTickSamplesDecidesAndAppliesAtTheLoopsInterval()
    {
        fills.put(101, 900L);
        loop.start(scheduler, () -> round);
        assertThat(scheduler.intervalNanos).isEqualTo(INTERVAL);
        assertThat(applied).isEmpty();

        scheduler.tick(1);
        assertThat(applied).containsExactly(new int[] {1, 1});
        // CHARM's second confirming interval above the band widens the busy worker with remote accesses only.
        scheduler.tick(1);
        assertThat(applied.getLast()).containsExactly(2, 1);
        assertThat(loop.spread(0)).isEqualTo(2);
        assertThat(loop.lastStep().orElseThrow().spreads()).containsExactly(2, 1);
        assertThat(open).containsExactlyInAnyOrder(101, 102);
    }

    @Test
    void aFailingIntervalStopsTheLoopOnceClosesTheSignalsAndKeepsTheLastStep()
    {
        AtomicBoolean fail = new AtomicBoolean();
        loop.start(scheduler, () -> {
            if (fail.get()) {
                throw new IllegalStateException("the pool is gone");
            }
            return round;
        });
        scheduler.tick(1);
        fail.set(true);
        scheduler.tick(3);
        assertThat(stops).extracting(RuntimeException::getMessage).containsExactly("the pool is gone");
        assertThat(loop.stopped()).isTrue();
        assertThat(scheduler.cancelled).isTrue();
        assertThat(open).isEmpty();
        assertThat(applied).hasSize(1);
        assertThat(loop.lastStep()).isPresent();
    }

    @Test
    void signalsThatCannotOpenAreReportedTheFirstMarked()
    {
        failing.add(101);
        failing.add(103);
        loop.interval(round);
        round = new AdaptiveLoop.Round(List.of(new Worker(0, 101, true), new Worker(1, 103, true)), 4);
        loop.interval(round);
        // A thread whose signal failed is not tried again while named; each failure is reported, the first marked.
        assertThat(openFailures).containsExactly("first thread 101: perf_event_open: EACCES", "thread 103: perf_event_open: EACCES");
        assertThat(applied.getLast()).containsExactly(1, 1);
    }

    @Test
    void restartAndResetStartEveryWorkerAfresh()
    {
        fills.put(101, 900L);
        loop.interval(round);
        loop.interval(round);
        assertThat(loop.spread(0)).isEqualTo(2);
        loop.restart();
        assertThat(loop.interval(round).spreads()).containsExactly(1, 1);
        assertThat(open).containsExactlyInAnyOrder(101, 102);

        loop.reset();
        assertThat(open).isEmpty();
        assertThat(loop.lastStep()).isEmpty();
        assertThat(loop.spread(0)).isEqualTo(1);
    }

    @Test
    void closeStopsTheScheduleAndClosesTheSignals()
    {
        loop.start(scheduler, () -> round);
        scheduler.tick(1);
        loop.close();
        assertThat(scheduler.cancelled).isTrue();
        assertThat(open).isEmpty();
        scheduler.tick(1);
        assertThat(applied).hasSize(1);
        assertThatThrownBy(() -> loop.start(scheduler, () -> round)).isInstanceOf(IllegalStateException.class);
    }
}
