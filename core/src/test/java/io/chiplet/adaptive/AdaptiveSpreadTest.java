package io.chiplet.adaptive;

import io.chiplet.adaptive.AdaptiveSpread.Worker;
import io.chiplet.perf.FakeRemoteAccessSignal;
import io.chiplet.perf.RemoteAccessSignal;
import io.chiplet.perf.SignalSource;
import io.chiplet.placement.SpreadController;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class AdaptiveSpreadTest
{
    private static final long INTERVAL = SpreadController.Settings.CHARM_INTERVAL_NANOS;

    /** Fake signals: each thread's next sample counts what {@link #fills} says, over one interval. */
    private final Map<Integer, Long> fills = new HashMap<>();
    private final Set<Integer> open = new HashSet<>();
    private final List<Integer> opened = new ArrayList<>();
    private final Set<Integer> failing = new HashSet<>();

    private RemoteAccessSignal open(int tid)
    {
        if (failing.contains(tid)) {
            throw new IllegalStateException("perf_event_open: EACCES");
        }
        opened.add(tid);
        open.add(tid);
        return new FakeRemoteAccessSignal(INTERVAL, () -> fills.getOrDefault(tid, 0L), () -> open.remove(tid));
    }

    private final AdaptiveSpread loop = new AdaptiveSpread(INTERVAL, 300, this::open);

    @Test
    void busyWorkersWidenUnderSustainedRemoteAccessAndIdleOnesDoNot()
    {
        fills.put(101, 900L);
        fills.put(102, 900L);
        List<Worker> workers = List.of(new Worker(0, 101, true), new Worker(1, 102, false), new Worker(2, 0, false));
        AdaptiveSpread.Step first = loop.step(workers, 4);
        assertThat(first.spreads()).containsExactly(1, 1, 1);
        // only the busy worker's sample counts towards the mean
        assertThat(first.meanRate()).hasValueCloseTo(900.0, within(1e-9));
        assertThat(first.workers().get(1).sample()).isPresent();
        assertThat(first.workers().get(2).sample()).isEmpty();
        assertThat(first.workers().get(0).source()).contains(SignalSource.SOFTWARE_FALLBACK);
        // CHARM's two confirming intervals: the second interval above the band widens
        assertThat(loop.step(workers, 4).spreads()).containsExactly(2, 1, 1);
        assertThat(loop.spread(0)).isEqualTo(2);
        assertThat(loop.spread(7)).isEqualTo(1);
        assertThat(opened).containsExactly(101, 102);
    }

    @Test
    void aWorkerKeepsItsSpreadWhileOthersComeAndGoAndANewOneStartsAtOne()
    {
        fills.put(101, 900L);
        for (int i = 0; i < 2; i++) {
            loop.step(List.of(new Worker(101, 101, true), new Worker(105, 105, true)), 4);
        }
        assertThat(loop.spread(101)).isEqualTo(2);
        // 103 arrives before 101 in the order, 105 leaves: 101 keeps its spread and evidence, 103 starts at 1
        AdaptiveSpread.Step step = loop.step(List.of(new Worker(103, 103, true), new Worker(101, 101, true)), 4);
        assertThat(step.spreads()).containsExactly(1, 2);
        assertThat(loop.step(List.of(new Worker(103, 103, true), new Worker(101, 101, true)), 4).spreads()).containsExactly(1, 3);
        // the gone thread's signal is closed
        assertThat(open).containsExactlyInAnyOrder(101, 103);
        // a restart, or a change in the widest spread, starts everyone afresh
        loop.restart();
        assertThat(loop.step(List.of(new Worker(103, 103, true), new Worker(101, 101, true)), 4).spreads()).containsExactly(1, 1);
        assertThat(open).containsExactlyInAnyOrder(101, 103);
        loop.step(List.of(new Worker(103, 103, true), new Worker(101, 101, true)), 4);
        assertThat(loop.spread(101)).isEqualTo(2);
        assertThat(loop.step(List.of(new Worker(103, 103, true), new Worker(101, 101, true)), 2).spreads()).containsExactly(1, 1);
    }

    @Test
    void aSlotKeepsItsSpreadWhenAnotherThreadRunsIt()
    {
        fills.put(101, 900L);
        fills.put(202, 900L);
        loop.step(List.of(new Worker(0, 101, true)), 4);
        loop.step(List.of(new Worker(0, 101, true)), 4);
        assertThat(loop.spread(0)).isEqualTo(2);
        AdaptiveSpread.Step step = loop.step(List.of(new Worker(0, 202, true)), 4);
        assertThat(step.spreads()).containsExactly(2);
        assertThat(open).containsExactly(202);
    }

    @Test
    void aThreadWithoutSignalStaysAndIsNotTriedAgain()
    {
        failing.add(101);
        fills.put(102, 900L);
        List<Worker> workers = List.of(new Worker(101, 101, true), new Worker(102, 102, true));
        AdaptiveSpread.Step first = loop.step(workers, 4);
        assertThat(first.openFailures()).singleElement().asString().contains("thread 101").contains("EACCES");
        assertThat(first.workers().get(0).source()).isEmpty();
        AdaptiveSpread.Step second = loop.step(workers, 4);
        assertThat(second.openFailures()).isEmpty();
        assertThat(second.spreads()).containsExactly(1, 2);
    }

    @Test
    void aThreadRunningTwoWorkersIsSampledOnce()
    {
        fills.put(101, 900L);
        AdaptiveSpread.Step step = loop.step(List.of(new Worker(0, 101, true), new Worker(1, 101, true)), 4);
        assertThat(step.workers().get(0).sample()).isSameAs(step.workers().get(1).sample());
        assertThat(opened).containsExactly(101);
    }

    @Test
    void closeClosesEverySignalAndNoWorkersIsFine()
    {
        loop.step(List.of(new Worker(0, 101, true), new Worker(1, 102, false)), 4);
        loop.close();
        assertThat(open).isEmpty();
        AdaptiveSpread.Step none = loop.step(List.of(), 4);
        assertThat(none.workers()).isEmpty();
        assertThat(none.meanRate()).isEmpty();
    }

    @Test
    void badInputIsNamed()
    {
        assertThatThrownBy(() -> loop.step(List.of(new Worker(0, 1, true), new Worker(0, 2, true)), 4)).hasMessageContaining("key 0 is given twice");
        assertThatThrownBy(() -> loop.step(List.of(), 0)).hasMessageContaining("maxSpread");
        assertThatThrownBy(() -> new AdaptiveSpread(INTERVAL, -1, this::open)).hasMessageContaining("threshold");
        assertThatThrownBy(() -> new Worker(0, -1, true)).hasMessageContaining("tid");
    }

    @Test
    void aZeroThresholdSpreadsOnAnyRemoteAccess()
    {
        AdaptiveSpread eager = new AdaptiveSpread(INTERVAL, 0, this::open);
        fills.put(101, 1L);
        eager.step(List.of(new Worker(0, 101, true)), 4);
        assertThat(eager.step(List.of(new Worker(0, 101, true)), 4).spreads()).containsExactly(2);
    }
}
