package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.Directive;
import io.chiplet.trino.measure.WindowSchedule.Attribution;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WindowScheduleTest
{
    private static final long WINDOW = 1000;

    private static WindowSchedule schedule(double share)
    {
        return WindowSchedule.starting(7, 42, WINDOW, new Directive(share, true), 10);
    }

    @Test
    void everyNodeDrawsTheSameArmsFromTheSameSchedule()
    {
        WindowSchedule coordinator = schedule(0.5);
        WindowSchedule worker = new WindowSchedule(coordinator.epoch(), coordinator.version(), coordinator.seed(), coordinator.windowMillis(), coordinator.entries());
        assertThat(LongStream.range(0, 200).mapToObj(coordinator::armOfWindow).toList())
                .isEqualTo(LongStream.range(0, 200).mapToObj(worker::armOfWindow).toList());
        assertThat(coordinator.armAt(10 * WINDOW + 500)).isEqualTo(coordinator.armOfWindow(10));
    }

    @Test
    void atHalfEveryPairOfWindowsHoldsOnePlacedAndOneControlInRandomOrder()
    {
        WindowSchedule schedule = schedule(0.5);
        List<Arm> arms = LongStream.range(10, 210).mapToObj(schedule::armOfWindow).toList();
        for (int i = 0; i < arms.size(); i += 2) {
            assertThat(List.of(arms.get(i), arms.get(i + 1))).containsExactlyInAnyOrder(Arm.PLACED, Arm.CONTROL);
        }
        // Random order: both orders occur, and not in a fixed alternation.
        assertThat(arms.subList(0, 40)).isNotEqualTo(LongStream.range(0, 40).mapToObj(i -> i % 2 == 0 ? arms.get(0) : arms.get(1)).toList());
    }

    @Test
    void aTenthIsControlAtTheDefaultShareAndNoneWhenMeasuringIsOff()
    {
        WindowSchedule tenth = schedule(0.1);
        assertThat(LongStream.range(10, 1010).filter(window -> tenth.armOfWindow(window) == Arm.CONTROL).count()).isEqualTo(100);
        WindowSchedule off = schedule(0);
        assertThat(LongStream.range(0, 1000).mapToObj(off::armOfWindow)).containsOnly(Arm.PLACED);
    }

    @Test
    void beforeTheFirstEntryEveryWindowIsPlacedAndNothingIsAttributed()
    {
        WindowSchedule schedule = schedule(0.5);
        assertThat(LongStream.range(0, 10).mapToObj(schedule::armOfWindow)).containsOnly(Arm.PLACED);
        assertThat(schedule.attribute(5 * WINDOW, 5 * WINDOW + 10, 0)).isEqualTo(Attribution.UNSCHEDULED);
        assertThat(schedule.attribute(9 * WINDOW + 500, 10 * WINDOW + 500, 0)).isEqualTo(Attribution.UNSCHEDULED);
    }

    @Test
    void aQueryIsItsWindowsArmWhenAllAgreeAndSpanningWhenTheyDiffer()
    {
        WindowSchedule schedule = schedule(0.5);
        long differing = LongStream.range(10, 100).filter(w -> schedule.armOfWindow(w) != schedule.armOfWindow(w + 1)).findFirst().orElseThrow();
        long agreeing = LongStream.range(10, 100).filter(w -> schedule.armOfWindow(w) == schedule.armOfWindow(w + 1)).findFirst().orElseThrow();
        Attribution inside = schedule.attribute(differing * WINDOW + 200, differing * WINDOW + 700, 100);
        assertThat(inside.name()).isEqualTo(schedule.armOfWindow(differing).name());
        assertThat(schedule.attribute(differing * WINDOW + 600, (differing + 1) * WINDOW + 100, 0)).isEqualTo(Attribution.SPANNING);
        // The margin widens the query: ending 50 ms before a switch is too close.
        assertThat(schedule.attribute(differing * WINDOW + 200, (differing + 1) * WINDOW - 50, 100)).isEqualTo(Attribution.SPANNING);
        assertThat(schedule.attribute(agreeing * WINDOW + 200, (agreeing + 1) * WINDOW + 500, 0).name()).isEqualTo(schedule.armOfWindow(agreeing).name());
        assertThat(schedule.attribute(10 * WINDOW, 2_000_000 * WINDOW, 0)).isEqualTo(Attribution.SPANNING);
    }

    @Test
    void aChangeTakesEffectFromItsWindowAndSupersedesWhatWasAnnouncedLater()
    {
        WindowSchedule schedule = schedule(0.5);
        WindowSchedule stopped = schedule.with(new Directive(0, false), 50);
        assertThat(stopped.version()).isEqualTo(2);
        assertThat(LongStream.range(50, 150).mapToObj(stopped::armOfWindow)).containsOnly(Arm.CONTROL);
        assertThat(LongStream.range(10, 50).mapToObj(stopped::armOfWindow).toList()).isEqualTo(LongStream.range(10, 50).mapToObj(schedule::armOfWindow).toList());
        assertThat(stopped.latest()).isEqualTo(new Directive(0, false));

        WindowSchedule replaced = stopped.with(new Directive(0.125, true), 40);
        assertThat(replaced.entries()).extracting(WindowSchedule.Entry::fromWindow).containsExactly(10L, 40L);
        assertThat(replaced.supersedes(stopped)).isTrue();
        assertThat(stopped.supersedes(replaced)).isFalse();
        WindowSchedule restarted = WindowSchedule.starting(8, 1, WINDOW, new Directive(0.5, true), 3);
        assertThat(restarted.supersedes(replaced)).as("a new coordinator run, whatever its version").isTrue();
    }

    @Test
    void refusesEntriesOutOfOrderAndSharesBeyondHalf()
    {
        assertThatThrownBy(() -> new WindowSchedule(1, 1, 1, WINDOW, List.of(new WindowSchedule.Entry(5, 0.1, true), new WindowSchedule.Entry(5, 0.1, true))))
                .hasMessageContaining("increasing window order");
        assertThatThrownBy(() -> new WindowSchedule.Entry(1, 0.6, true)).hasMessageContaining("control share");
        assertThatThrownBy(() -> new WindowSchedule(1, 1, 1, 0, List.of())).hasMessageContaining("at least 1 ms");
    }
}
