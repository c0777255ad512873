package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WindowLengthTest
{
    private static double[] runs(int count, double millis)
    {
        double[] runs = new double[count];
        Arrays.fill(runs, millis);
        return runs;
    }

    @Test
    void theWindowIsTheSmallestBaseTimesAPowerOfTwoAtLeastFourTimesTheNinetiethPercentile()
    {
        WindowLength rule = WindowLength.of(4_000);
        // 1 s tasks: 4 s is enough.
        assertThat(rule.exponent(0, runs(100, 1_000))).isZero();
        // 1.2 s: 4.8 s asked, so 8 s.
        assertThat(rule.exponent(0, runs(100, 1_200))).isEqualTo(1);
        // 90 tasks of 1 s and 10 of 60 s: the slowest tenth does not set it (90th percentile 1 s).
        double[] mixed = runs(100, 1_000);
        Arrays.fill(mixed, 90, 100, 60_000);
        assertThat(rule.exponent(0, mixed)).isZero();
        // 11 of 60 s: the 90th percentile is 60 s, so 240 s asked, capped at 16 base windows.
        Arrays.fill(mixed, 89, 100, 60_000);
        assertThat(rule.exponent(0, mixed)).isEqualTo(WindowLength.DEFAULT_MAX_EXPONENT);
        assertThat(rule.windowMillis(WindowLength.DEFAULT_MAX_EXPONENT)).isEqualTo(64_000);
    }

    @Test
    void theExponentOnlyGrowsAndWaitsForEnoughTasks()
    {
        WindowLength rule = WindowLength.of(1_000);
        assertThat(rule.exponent(3, runs(100, 10))).isEqualTo(3);
        assertThat(rule.exponent(0, runs(WindowLength.DEFAULT_MIN_TASKS - 1, 10_000))).isZero();
        assertThat(rule.exponent(0, runs(WindowLength.DEFAULT_MIN_TASKS, 10_000))).isEqualTo(4);
        assertThat(WindowLength.fixed(1_000).exponent(0, runs(100, 10_000))).isZero();
        assertThatThrownBy(() -> new WindowLength(1_000, 4, 1.5, 4, 20)).hasMessageContaining("quantile");
    }

    @Test
    void longWindowsAreAlignedUnionsOfBaseWindowsFromTheNextBoundaryOfTheirLength()
    {
        // Decided in base window 5 with windows of 4: from base window 8 on.
        WindowSteps steps = WindowSteps.BASE.grow(2, 6);
        assertThat(steps.steps()).containsExactly(new WindowSteps.Step(0, 0), new WindowSteps.Step(8, 2));
        assertThat(steps.windowOf(7)).isEqualTo(7);
        assertThat(steps.nextWindow(7)).isEqualTo(8);
        assertThat(steps.windowOf(8)).isEqualTo(8);
        assertThat(steps.windowOf(11)).isEqualTo(8);
        assertThat(steps.nextWindow(9)).isEqualTo(12);
        // Grown again, in base window 13: the next boundary of 16 base windows is 16; a shorter or equal one changes nothing.
        WindowSteps longer = steps.grow(4, 14);
        assertThat(longer.steps().get(2)).isEqualTo(new WindowSteps.Step(16, 4));
        assertThat(longer.windowOf(14)).isEqualTo(12);
        assertThat(longer.windowOf(31)).isEqualTo(16);
        assertThat(longer.grow(3, 100)).isSameAs(longer);
        assertThat(WindowSteps.parse(longer.encode())).isEqualTo(longer);
        assertThatThrownBy(() -> new WindowSteps(List.of(new WindowSteps.Step(0, 0), new WindowSteps.Step(6, 2)))).hasMessageContaining("divisible");
    }

    @Test
    void everyLongWindowHasAFreshDrawPerHostAndEachPairHoldsBothArms()
    {
        ArmAssignment assignment = new ArmAssignment(9);
        Directive half = new Directive(0.5, true);
        WindowSteps steps = WindowSteps.BASE.grow(2, 1);
        // Base windows draw as they always did.
        assertThat(steps.draw(assignment, half, 3, 0)).isEqualTo(half.draw(assignment, 3, 0));
        int differ = 0;
        for (long pair = 0; pair < 50; pair++) {
            long window = 8 + 8 * pair;
            assertThat(steps.draw(assignment, half, 3, window).arm()).isNotEqualTo(steps.draw(assignment, half, 3, window + 4).arm());
            differ += steps.draw(assignment, half, 3, window).arm() != steps.draw(assignment, half, 4, window).arm() ? 1 : 0;
        }
        // Hosts follow their own orders.
        assertThat(differ).isBetween(10, 40);
    }

    @Test
    void theScheduleKeepsATaskInItsLongWindowAndLeavesOutOneRunningIntoAnotherOfTheOtherArm()
    {
        SwitchbackSchedule schedule = SwitchbackSchedule.of(3, 1_000, 100);
        Directive half = new Directive(0.5, true);
        WindowSteps steps = WindowSteps.BASE.grow(2, 1);
        for (long window = 4; window < 400; window += 4) {
            SwitchbackSchedule.Start start = schedule.start(7, window * 1_000 + 50, w -> half, steps);
            assertThat(start.window()).isEqualTo(window);
            Arm before = schedule.drawn(7, window - 4, w -> half, steps).arm();
            assertThat(start.inWashout()).isEqualTo(before != start.arm().arm());
            SwitchbackSchedule.Start later = schedule.start(7, window * 1_000 + 3_500, w -> half, steps);
            assertThat(later.arm()).isEqualTo(start.arm());
            assertThat(later.inWashout()).isFalse();
            // Running from 3.5 s into the long window to 1 s into the next one.
            Arm next = schedule.drawn(7, window + 4, w -> half, steps).arm();
            assertThat(schedule.exclusion(7, later, window * 1_000 + 5_000, w -> half, steps).isPresent()).isEqualTo(next != later.arm().arm());
        }
    }
}
