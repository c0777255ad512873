package io.chiplet.spark.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.spark.placement.RecordingTaskPlacement;
import io.chiplet.spark.placement.TaskPlacement;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class MeasuredTaskPlacementTest
{
    @Test
    void controlTasksNeverReachThePlacementAndEveryStageHasBothArms()
    {
        RecordingTaskPlacement placed = new RecordingTaskPlacement(2);
        Map<Long, DrawnArm> arms = new HashMap<>();
        MeasuredTaskPlacement placement = new MeasuredTaskPlacement(placed, new ArmAssignment(7), () -> new Directive(0.1, true), arms::put, new OwnCpu(),
                EffectInjector.NONE);

        long task = 0;
        for (int stage = 0; stage < 5; stage++) {
            for (int partition = 0; partition < 40; partition++) {
                TaskPlacement.Handle handle = placement.onTaskStart(new TaskPlacement.TaskIdentity(stage, partition, task++));
                placement.onTaskEnd(handle);
            }
        }

        assertThat(arms).hasSize(200);
        assertThat(arms.values().stream().filter(arm -> arm.arm() == Arm.CONTROL).count()).isEqualTo(20);
        for (int stage = 0; stage < 5; stage++) {
            int first = stage * 40;
            assertThat(arms.entrySet().stream().filter(entry -> entry.getKey() >= first && entry.getKey() < first + 40).map(entry -> entry.getValue().arm()).distinct())
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
        Map<Long, DrawnArm> arms = new HashMap<>();
        MeasuredTaskPlacement placement = new MeasuredTaskPlacement(placed, new ArmAssignment(7), directive::get, arms::put, new OwnCpu(), EffectInjector.NONE);
        placement.onTaskEnd(placement.onTaskStart(new TaskPlacement.TaskIdentity(1, 1, 1)));
        int before = placed.started().size();

        directive.set(new Directive(0, false));
        for (int partition = 0; partition < 50; partition++) {
            placement.onTaskEnd(placement.onTaskStart(new TaskPlacement.TaskIdentity(2, partition, 100 + partition)));
        }

        assertThat(placed.started()).hasSize(before);
        assertThat(arms.entrySet().stream().filter(entry -> entry.getKey() >= 100).map(Map.Entry::getValue)).containsOnly(new DrawnArm(Arm.CONTROL, 0));
    }

    @Test
    void messagesRoundTripAndOthersAreNotOurs()
    {
        ArmReport report = new ArmReport("exec 1", 1234, Map.of(5L, new DrawnArm(Arm.PLACED, 0.1), 6L, new DrawnArm(Arm.CONTROL, 0.025), 7L, new DrawnArm(Arm.CONTROL, 0)));
        assertThat(MeasureMessages.decode(MeasureMessages.encode(report))).contains(report);
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new ArmReport("1", 0, Map.of())))).contains(new ArmReport("1", 0, Map.of()));
        assertThat(MeasureMessages.decode(MeasureMessages.encode(new Directive(0.025, false)))).contains(new Directive(0.025, false));
        assertThat(MeasureMessages.decode("chiplet/1\thint-request\t1")).isEmpty();
        assertThat(MeasureMessages.decode("chiplet/1\tarms\tx\tnot-a-number\t")).isEmpty();
        assertThat(MeasureMessages.decode(42)).isEmpty();
    }
}
