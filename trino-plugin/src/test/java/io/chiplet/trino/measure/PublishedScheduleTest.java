package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.Directive;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class PublishedScheduleTest
{
    private static final long WINDOW = 1000;
    private static final long T0 = 1_000_000L * WINDOW;
    private static final long FIRST = T0 / WINDOW + QueryMeasurements.LEAD_WINDOWS;

    private final PublishedSchedule published = PublishedSchedule.starting(T0 + 100, 42, WINDOW, new Directive(0.5, true));
    private final LeftOutQueries leftOut = new LeftOutQueries();

    /** A query well inside {@code window}, its margin included. */
    private static CompletedQuery inWindow(long window)
    {
        return new CompletedQuery("q", "a", "SELECT a", window * WINDOW + 200, window * WINDOW + 700, 1_000_000, 1000, 10, false);
    }

    private void confirmAt(long nowMillis)
    {
        WindowSchedule current = published.current();
        published.confirmed(current.epoch(), current.version(), true, nowMillis);
    }

    @Test
    void theFirstEntryTakesEffectTwoWindowsOnAndAQueryBeforeItIsUnscheduled()
    {
        assertThat(published.current().entries().getFirst().fromWindow()).isEqualTo(FIRST);
        confirmAt(T0 + 200);
        assertThat(published.arm(inWindow(T0 / WINDOW), leftOut)).isEmpty();
        assertThat(leftOut.byReason()).isEqualTo(Map.of(LeftOut.UNSCHEDULED, 1L));
    }

    @Test
    void aScheduledWindowHasItsArmOnlyOnceEveryWorkerConfirmedInTime()
    {
        long window = FIRST + 3;
        assertThat(published.arm(inWindow(window), leftOut)).isEmpty();
        assertThat(leftOut.byReason()).isEqualTo(Map.of(LeftOut.UNCONFIRMED, 1L));
        confirmAt(T0 + 200);
        assertThat(published.arm(inWindow(window), leftOut)).contains(published.current().armOfWindow(window));
        assertThat(leftOut.total()).isEqualTo(1);
    }

    @Test
    void aLateConfirmationLeavesTheWindowsUpToItUncertainForGood()
    {
        confirmAt((FIRST + 3) * WINDOW + 500);
        assertThat(published.arm(inWindow(FIRST), leftOut)).isEmpty();
        assertThat(published.arm(inWindow(FIRST + 3), leftOut)).isEmpty();
        assertThat(leftOut.byReason()).isEqualTo(Map.of(LeftOut.UNCONFIRMED, 2L));
        assertThat(published.arm(inWindow(FIRST + 5), leftOut)).contains(published.current().armOfWindow(FIRST + 5));
    }

    @Test
    void confirmationsOfAnotherEpochAnOlderVersionOrNotEveryWorkerConfirmNothing()
    {
        WindowSchedule current = published.current();
        published.confirmed(current.epoch() + 1, current.version(), true, T0 + 200);
        published.confirmed(current.epoch(), current.version() - 1, true, T0 + 200);
        published.confirmed(current.epoch(), current.version(), false, T0 + 200);
        assertThat(published.arm(inWindow(FIRST + 3), leftOut)).isEmpty();
        assertThat(leftOut.byReason()).isEqualTo(Map.of(LeftOut.UNCONFIRMED, 1L));
    }

    @Test
    void aNewDirectiveBecomesTheNextEntryTwoWindowsOnAndIsUnconfirmedUntilItsVersionIs()
    {
        confirmAt(T0 + 200);
        long version = published.current().version();
        assertThat(published.follow(new Directive(0.5, true), (FIRST + 10) * WINDOW + 1)).as("the same directive").isFalse();
        assertThat(published.current().version()).isEqualTo(version);

        assertThat(published.follow(new Directive(0.25, true), (FIRST + 10) * WINDOW + 1)).isTrue();
        assertThat(published.current().version()).isEqualTo(version + 1);
        assertThat(published.current().entries().getLast().fromWindow()).isEqualTo(FIRST + 12);
        assertThat(published.current().latest()).isEqualTo(new Directive(0.25, true));
        assertThat(published.arm(inWindow(FIRST + 11), leftOut)).as("before the change").isPresent();
        assertThat(published.arm(inWindow(FIRST + 12), leftOut)).isEmpty();
        published.confirmed(published.current().epoch(), version, true, (FIRST + 10) * WINDOW + 2);
        assertThat(published.arm(inWindow(FIRST + 12), leftOut)).as("the older version confirmed").isEmpty();
        confirmAt((FIRST + 10) * WINDOW + 3);
        assertThat(published.arm(inWindow(FIRST + 12), leftOut)).isPresent();
        assertThat(leftOut.byReason()).isEqualTo(Map.of(LeftOut.UNCONFIRMED, 2L));
    }

    @Test
    void aQueryAcrossWindowsOfBothArmsIsSpanning()
    {
        confirmAt(T0 + 200);
        WindowSchedule current = published.current();
        long window = LongStream.range(FIRST, FIRST + 100).filter(w -> current.armOfWindow(w) != current.armOfWindow(w + 1)).findFirst().orElseThrow();
        CompletedQuery across = new CompletedQuery("q", "a", "SELECT a", window * WINDOW + 500, (window + 1) * WINDOW + 500, 1_000_000, 1000, 10, false);
        assertThat(published.arm(across, leftOut)).isEqualTo(Optional.<Arm>empty());
        assertThat(leftOut.byReason()).isEqualTo(Map.of(LeftOut.SPANNING, 1L));
    }
}
