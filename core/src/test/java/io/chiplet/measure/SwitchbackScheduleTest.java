package io.chiplet.measure;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SwitchbackScheduleTest
{
    private static final long WINDOW = 10_000;
    private static final long WASHOUT = 1_000;
    private static final Directive HALF = new Directive(0.5, true);
    private final SwitchbackSchedule schedule = SwitchbackSchedule.of(23, WINDOW, WASHOUT);
    private final long host = SwitchbackSchedule.hostStratum("boot-id-1");

    @Test
    void everyProcessOfAHostDrawsTheSameArmAtTheSameTimeAndHostsFollowTheirOwnOrders()
    {
        SwitchbackSchedule other = SwitchbackSchedule.of(23, WINDOW, WASHOUT);
        int differ = 0;
        for (long window = 0; window < 200; window++) {
            long at = window * WINDOW + 5_000;
            assertThat(other.start(SwitchbackSchedule.hostStratum("boot-id-1"), at, HALF)).isEqualTo(schedule.start(host, at, HALF));
            if (schedule.start(host, at, HALF).arm().arm() != schedule.start(SwitchbackSchedule.hostStratum("boot-id-2"), at, HALF).arm().arm()) {
                differ++;
            }
        }
        // Independent orders: about half the windows differ between two hosts.
        assertThat(differ).isBetween(60, 140);
    }

    @Test
    void halfTheWindowsAreControlAtShareOneHalfAndNoneOnceStopped()
    {
        long control = 0;
        for (long window = 0; window < 100; window++) {
            if (schedule.start(host, window * WINDOW + 2_000, HALF).arm().arm() == Arm.CONTROL) {
                control++;
            }
            assertThat(schedule.start(host, window * WINDOW + 2_000, new Directive(0, false)).arm().arm()).isEqualTo(Arm.CONTROL);
            assertThat(schedule.start(host, window * WINDOW + 2_000, new Directive(0, true)).arm().arm()).isEqualTo(Arm.PLACED);
        }
        assertThat(control).isEqualTo(50);
    }

    @Test
    void aUnitStartingInTheWashoutAfterASwitchIsLeftOutAndOneAfterItIsNot()
    {
        long switchedWindow = firstWindowWhere(true);
        long start = switchedWindow * WINDOW;
        SwitchbackSchedule.Start early = schedule.start(host, start + WASHOUT - 1, HALF);
        assertThat(early.inWashout()).isTrue();
        assertThat(schedule.exclusion(host, early, start + WASHOUT, HALF)).contains(SwitchbackSchedule.Exclusion.WASHOUT);
        SwitchbackSchedule.Start later = schedule.start(host, start + WASHOUT, HALF);
        assertThat(later.inWashout()).isFalse();
        assertThat(later.window()).isEqualTo(switchedWindow);
        assertThat(schedule.exclusion(host, later, start + WASHOUT + 100, HALF)).isEmpty();
        // No switch, no washout.
        long sameArm = firstWindowWhere(false);
        assertThat(schedule.start(host, sameArm * WINDOW, HALF).inWashout()).isFalse();
    }

    @Test
    void aUnitSpanningASwitchIsLeftOutAndOneRunningIntoAWindowOfItsOwnArmKeepsItsStartWindow()
    {
        long beforeSwitch = firstWindowWhere(true) - 1;
        SwitchbackSchedule.Start spanning = schedule.start(host, beforeSwitch * WINDOW + 9_000, HALF);
        assertThat(schedule.exclusion(host, spanning, (beforeSwitch + 1) * WINDOW + 10, HALF)).contains(SwitchbackSchedule.Exclusion.SPANNING);
        long beforeSame = firstWindowWhere(false) - 1;
        SwitchbackSchedule.Start across = schedule.start(host, beforeSame * WINDOW + 9_000, HALF);
        assertThat(schedule.exclusion(host, across, (beforeSame + 1) * WINDOW + 10, HALF)).isEmpty();
        assertThat(across.window()).isEqualTo(beforeSame);
        // Placed until the guard stopped it, then control: spans a switch.
        SwitchbackSchedule.Start placed = schedule.start(host, placedWindow() * WINDOW + 5_000, HALF);
        assertThat(schedule.exclusion(host, placed, (placedWindow() + 1) * WINDOW + 5, new Directive(0, false))).contains(SwitchbackSchedule.Exclusion.SPANNING);
    }

    @Test
    void aNewDirectiveTakesEffectFromTheNextWindowSoAHostNeverSwitchesWithinOne()
    {
        WindowedDirective windowed = WindowedDirective.of(HALF);
        Directive residual = new Directive(0.125, true);
        windowed = windowed.receive(residual, 7);
        assertThat(windowed.at(7)).isEqualTo(HALF);
        assertThat(windowed.at(8)).isEqualTo(residual);
        // The same directive again changes nothing; another in the same window replaces the coming one.
        assertThat(windowed.receive(residual, 7)).isEqualTo(windowed);
        WindowedDirective stopped = windowed.receive(new Directive(0, false), 7);
        assertThat(stopped.at(7)).isEqualTo(HALF);
        assertThat(stopped.at(8)).isEqualTo(new Directive(0, false));
        // Every start within window 7 has window 7's arm under the share in force then.
        WindowedDirective finalWindowed = windowed;
        for (long at = 7 * WINDOW; at < 8 * WINDOW; at += 1_000) {
            assertThat(schedule.start(host, at, finalWindowed::at).arm()).isEqualTo(HALF.draw(new ArmAssignment(23), host, 7));
        }
        // Washout is judged across the change: the previous window under its own directive.
        long switched = 8;
        Arm before = HALF.draw(new ArmAssignment(23), host, 7).arm();
        Arm after = residual.draw(new ArmAssignment(23), host, 8).arm();
        assertThat(schedule.start(host, switched * WINDOW + 10, finalWindowed::at).inWashout()).isEqualTo(before != after);
    }

    @Test
    void clustersNameTheHostAndTheWindow()
    {
        assertThat(SwitchbackSchedule.cluster("b1", 7)).isEqualTo("b1 window 7");
        assertThat(SwitchbackSchedule.cluster("b1", 7)).isNotEqualTo(SwitchbackSchedule.cluster("b2", 7));
    }

    @Test
    void aWashoutAsLongAsTheWindowIsRefused()
    {
        assertThatThrownBy(() -> SwitchbackSchedule.of(1, 1_000, 1_000)).hasMessageContaining("washout");
        assertThatThrownBy(() -> SwitchbackSchedule.of(1, 1_000, -1)).hasMessageContaining("washout");
        assertThat(Optional.of(SwitchbackSchedule.of(1, 1_000, 0))).isPresent();
    }

    private long placedWindow()
    {
        for (long window = 1; ; window++) {
            if (schedule.start(host, window * WINDOW + 5_000, HALF).arm().arm() == Arm.PLACED) {
                return window;
            }
        }
    }

    private long firstWindowWhere(boolean switched)
    {
        for (long window = 1; ; window++) {
            Arm before = schedule.start(host, (window - 1) * WINDOW + 5_000, HALF).arm().arm();
            Arm now = schedule.start(host, window * WINDOW + 5_000, HALF).arm().arm();
            if ((before != now) == switched) {
                return window;
            }
        }
    }
}
