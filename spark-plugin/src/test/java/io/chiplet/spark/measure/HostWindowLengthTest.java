package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.Directive;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.measure.WindowLength;
import io.chiplet.measure.WindowSteps;
import io.chiplet.spark.placement.TaskPlacement;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switchback windows grown by core's {@link WindowLength} rule as the Spark plugin runs them: the driver decides,
 * sends the steps with its directive, and every executor of a host draws the same windows and arms from them; a
 * longer window applies only from the next boundary of its length.
 */
class HostWindowLengthTest
{
    @Test
    void aLongerWindowTakesEffectOnTheNextBoundaryAndExecutorsOfAHostAgree()
    {
        long baseMillis = 1_000;
        SwitchbackSchedule schedule = SwitchbackSchedule.of(11, baseMillis, 100);
        long host = SwitchbackSchedule.hostStratum("boot a");
        Directive half = new Directive(0.5, true);
        // The driver: tasks of 1.5 s at the 90th percentile ask for windows of at least 6 s, so 8 s (2^3 base windows),
        // decided in base window 13: in force from base window 16, the next boundary of 8 s.
        double[] runMillis = new double[40];
        java.util.Arrays.fill(runMillis, 1_500);
        int exponent = WindowLength.of(baseMillis).exponent(0, runMillis);
        assertThat(exponent).isEqualTo(3);
        WindowSteps decided = WindowSteps.BASE.grow(exponent, 13 + 1);
        Object sent = MeasureMessages.encode(new HostDirective(half, decided));

        // Two executors of the host each decode the reply.
        AtomicLong clock = new AtomicLong();
        AtomicReference<WindowSteps> first = new AtomicReference<>(WindowSteps.BASE);
        AtomicReference<WindowSteps> second = new AtomicReference<>(WindowSteps.BASE);
        TaskArmDraw one = TaskArmDraw.windows(schedule, host, window -> half, first::get, clock::get);
        TaskArmDraw other = TaskArmDraw.windows(schedule, host, window -> half, second::get, clock::get);
        HostDirective received = (HostDirective) MeasureMessages.decode(sent).orElseThrow();
        assertThat(received).isEqualTo(new HostDirective(half, decided));
        first.set(received.steps());
        second.set(((HostDirective) MeasureMessages.decode(sent).orElseThrow()).steps());

        TaskPlacement.TaskIdentity task = new TaskPlacement.TaskIdentity(1, 0, 1);
        Set<Long> windowsBefore = new HashSet<>();
        Set<Long> windowsAfter = new HashSet<>();
        Set<Arm> armsAfter = new HashSet<>();
        for (long millis = 13_000; millis < 40_000; millis += 250) {
            clock.set(millis);
            SwitchbackSchedule.Start start = one.start(task);
            assertThat(other.start(task)).as("the other executor of the host at %d ms", millis).isEqualTo(start);
            if (millis < 16_000) {
                // Before the boundary: base windows, as before the decision.
                assertThat(start.window()).isEqualTo(millis / baseMillis);
                windowsBefore.add(start.window());
            }
            else {
                // From the boundary on: windows of 8 s, named by their first base window.
                assertThat(start.window()).isEqualTo(millis / 8_000 * 8);
                windowsAfter.add(start.window());
                if (start.window() == 16) {
                    armsAfter.add(start.arm().arm());
                }
            }
        }
        assertThat(windowsBefore).containsExactlyInAnyOrder(13L, 14L, 15L);
        assertThat(windowsAfter).containsExactlyInAnyOrder(16L, 24L, 32L);
        assertThat(armsAfter).as("one arm in a whole long window").hasSize(1);
    }

    @Test
    void aTaskRunningIntoTheNextLongWindowIsLeftOutOnlyWhereItsArmDiffers()
    {
        SwitchbackSchedule schedule = SwitchbackSchedule.of(5, 1_000, 100);
        long host = SwitchbackSchedule.hostStratum("boot b");
        Directive half = new Directive(0.5, true);
        WindowSteps steps = WindowSteps.BASE.grow(2, 1);
        AtomicLong clock = new AtomicLong();
        TaskArmDraw draw = TaskArmDraw.windows(schedule, host, window -> half, () -> steps, clock::get);
        TaskPlacement.TaskIdentity task = new TaskPlacement.TaskIdentity(1, 0, 1);
        for (long window = 4; window < 200; window += 4) {
            // Starts in the middle of a long window of 4 s, ends 3 s later in the next one: inside one base window's
            // span of the next long window, so only that long window's arm matters.
            clock.set(window * 1_000 + 2_000);
            SwitchbackSchedule.Start start = draw.start(task);
            clock.set(window * 1_000 + 5_000);
            TaskArm arm = draw.end(start);
            Arm next = schedule.drawn(host, window + 4, w -> half, steps).arm();
            assertThat(arm.exclusion().isPresent()).as("window %d", window).isEqualTo(next != start.arm().arm());
        }
    }
}
