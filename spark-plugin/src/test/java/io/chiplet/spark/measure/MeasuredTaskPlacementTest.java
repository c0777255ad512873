package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.SwitchbackSchedule;
import io.chiplet.spark.placement.RecordingTaskPlacement;
import io.chiplet.spark.placement.TaskPlacement;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class MeasuredTaskPlacementTest
{
    @Test
    void controlTasksNeverReachThePlacementAndEveryStageHasBothArms()
    {
        RecordingTaskPlacement placed = new RecordingTaskPlacement(2);
        Map<Long, TaskArm> arms = new HashMap<>();
        MeasuredTaskPlacement placement = new MeasuredTaskPlacement(placed, new ArmAssignment(7), () -> new Directive(0.1, true), arms::put, new OwnCpu(),
                InjectedTaskDelay.NONE);

        long task = 0;
        for (int stage = 0; stage < 5; stage++) {
            for (int partition = 0; partition < 40; partition++) {
                TaskPlacement.Handle handle = placement.onTaskStart(new TaskPlacement.TaskIdentity(stage, partition, task++));
                placement.onTaskEnd(handle);
            }
        }

        assertThat(arms).hasSize(200);
        assertThat(arms.values().stream().filter(arm -> arm.drawn().arm() == Arm.CONTROL).count()).isEqualTo(20);
        for (int stage = 0; stage < 5; stage++) {
            int first = stage * 40;
            assertThat(arms.entrySet().stream().filter(entry -> entry.getKey() >= first && entry.getKey() < first + 40).map(entry -> entry.getValue().drawn().arm()).distinct())
                    .containsExactlyInAnyOrder(Arm.PLACED, Arm.CONTROL);
        }
        // The placement saw exactly the placed tasks, start and end; the arms are core's draw.
        assertThat(placed.started()).hasSize(180);
        assertThat(placed.ended()).hasSize(180);
        assertThat(placed.started()).allSatisfy(start -> assertThat(new ArmAssignment(7).of(start.task().stageId(), start.task().partitionId(), 0.1)).isEqualTo(Arm.PLACED));
    }

    @Test
    void onceTheDriverStopsPlacementNoTaskIsPlaced()
    {
        RecordingTaskPlacement placed = new RecordingTaskPlacement(2);
        AtomicReference<Directive> directive = new AtomicReference<>(new Directive(0.1, true));
        Map<Long, TaskArm> arms = new HashMap<>();
        MeasuredTaskPlacement placement = new MeasuredTaskPlacement(placed, new ArmAssignment(7), directive::get, arms::put, new OwnCpu(), InjectedTaskDelay.NONE);
        placement.onTaskEnd(placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 1, 1)));
        int before = placed.started().size();

        directive.set(new Directive(0, false));
        for (int partition = 0; partition < 50; partition++) {
            placement.onTaskEnd(placement.onTaskStart(new TaskPlacement.TaskIdentity(2, partition, 100 + partition)));
        }

        assertThat(placed.started()).hasSize(before);
        assertThat(arms.entrySet().stream().filter(entry -> entry.getKey() >= 100).map(Map.Entry::getValue)).containsOnly(TaskArm.of(new DrawnArm(Arm.CONTROL, 0)));
    }

    @Test
    void inWindowsEveryTaskOfAWindowHasItsArmAndATaskSpanningASwitchIsReportedLeftOut()
    {
        RecordingTaskPlacement placed = new RecordingTaskPlacement(2);
        Map<Long, TaskArm> arms = new HashMap<>();
        AtomicLong clock = new AtomicLong(0);
        SwitchbackSchedule schedule = SwitchbackSchedule.of(7, 1_000, 100);
        long host = SwitchbackSchedule.hostStratum("boot a");
        Directive half = new Directive(0.5, true);
        MeasuredTaskPlacement placement = new MeasuredTaskPlacement(placed, TaskArmDraw.windows(schedule, host, window -> half, () -> io.chiplet.measure.WindowSteps.BASE, clock::get), arms::put, new OwnCpu(),
                InjectedTaskDelay.NONE);
        long task = 0;
        for (long window = 0; window < 20; window++) {
            for (int i = 0; i < 5; i++) {
                clock.set(window * 1_000 + 200 + i * 100);
                placement.onTaskEnd(placement.onTaskStart(new TaskPlacement.TaskIdentity(1, i, task++)));
            }
        }
        // Each window's tasks all have its arm (core's draw for the host), with the window as their cluster.
        for (long id = 0; id < task; id++) {
            TaskArm arm = arms.get(id);
            assertThat(arm.window()).isEqualTo(id / 5);
            assertThat(arm.drawn().arm()).isEqualTo(schedule.start(host, arm.window() * 1_000 + 500, half).arm().arm());
            assertThat(arm.exclusion()).isEmpty();
        }
        assertThat(placed.started()).hasSize((int) arms.values().stream().filter(arm -> arm.drawn().arm() == Arm.PLACED).count());
        assertThat(arms.values().stream().map(arm -> arm.drawn().arm()).distinct()).containsExactlyInAnyOrder(Arm.PLACED, Arm.CONTROL);

        // A task started late in a window and ended after a switch of arm is left out.
        long window = 0;
        while (schedule.start(host, window * 1_000 + 500, half).arm().arm() == schedule.start(host, (window + 1) * 1_000 + 500, half).arm().arm()) {
            window++;
        }
        clock.set(window * 1_000 + 900);
        TaskPlacement.Handle handle = placement.onTaskStart(new TaskPlacement.TaskIdentity(2, 0, 999));
        clock.set((window + 1) * 1_000 + 300);
        placement.onTaskEnd(handle);
        assertThat(arms.get(999L).exclusion()).contains(SwitchbackSchedule.Exclusion.SPANNING);
        // One started in the washout after that switch is left out too.
        clock.set((window + 1) * 1_000 + 50);
        placement.onTaskEnd(placement.onTaskStart(new TaskPlacement.TaskIdentity(2, 1, 1000)));
        assertThat(arms.get(1000L).exclusion()).contains(SwitchbackSchedule.Exclusion.WASHOUT);
    }

    @Test
    void messagesRoundTripAndOthersAreNotOurs()
    {
        ArmReport report = new ArmReport("exec 1", 1234, Map.of(5L, TaskArm.of(new DrawnArm(Arm.PLACED, 0.1)), 6L, TaskArm.of(new DrawnArm(Arm.CONTROL, 0.025)),
                7L, TaskArm.of(new DrawnArm(Arm.CONTROL, 0)), 8L, new TaskArm(new DrawnArm(Arm.PLACED, 0.5), 177_000_123L, Optional.empty()),
                9L, new TaskArm(new DrawnArm(Arm.CONTROL, 0.5), 3, Optional.of(SwitchbackSchedule.Exclusion.WASHOUT)),
                10L, new TaskArm(new DrawnArm(Arm.PLACED, 0.1), 4, Optional.of(SwitchbackSchedule.Exclusion.SPANNING))), "boot 1b2c-x y", false);
        assertThat(MeasureMessages.decode(MeasureMessages.encode(report))).contains(report);
        ArmReport oneL3 = new ArmReport("2", 7, Map.of(), "host a", true);
        assertThat(MeasureMessages.decode(MeasureMessages.encode(oneL3))).contains(oneL3);
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new ArmReport("1", 0, Map.of())))).contains(new ArmReport("1", 0, Map.of()));
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new Directive(0.025, false)))).contains(new Directive(0.025, false));
        assertThat(MeasureMessages.decode("chiplet/1\thint-request\t1")).isEmpty();
        assertThat(MeasureMessages.decode("chiplet/1\tarms\tx\tnot-a-number\t")).isEmpty();
        assertThat(MeasureMessages.decode(42)).isEmpty();
    }
}
