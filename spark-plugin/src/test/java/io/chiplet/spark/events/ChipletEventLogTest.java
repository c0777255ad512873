package io.chiplet.spark.events;

import io.chiplet.advice.Advice;
import io.chiplet.engine.AdvisedSetting;
import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.GuardMode;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.MeasureSettings;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.measure.ArmReport;
import io.chiplet.spark.measure.MeasuringListener;
import io.chiplet.spark.measure.TaskArm;
import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.TopologyReport;
import org.apache.spark.Success$;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.apache.spark.util.JsonProtocol;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletEventLogTest
{
    private final List<SparkListenerEvent> posted = new ArrayList<>();
    private final AtomicLong clock = new AtomicLong(1_000);
    private final ChipletEventLog events = new ChipletEventLog(posted::add, clock::get);

    @Test
    void everyEventSurvivesSparksEventLogJsonAsTheHistoryServerReadsIt()
    {
        events.topology(new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(2, 2, 1 << 20, 8 << 20), false));
        events.placement(new PlacementCounts("1", 10, 1, 0, Map.of(0, 5L, 1, 4L)));
        events.settings("1 of 1 expected executors", List.of(new AdvisedSetting("spark.sql.shuffle.partitions", "6", "3 per chiplet")));
        MeasuringListener measuring = new MeasuringListener(settings(), "app", () -> "app-1", clock::get);
        SparkListener poster = events.measurement(measuring::latest);
        poster.onApplicationEnd(null);
        assertThat(posted).hasSize(4);

        for (SparkListenerEvent event : posted) {
            String json = JsonProtocol.sparkEventToJsonString(event);
            assertThat(json).contains("\"Event\":\"" + event.getClass().getName() + "\"");
            assertThat(JsonProtocol.sparkEventFromJson(json)).isEqualTo(event);
        }
        assertThat(JsonProtocol.sparkEventToJsonString(posted.get(1))).contains("\"tasksByChiplet\":{\"0\":5,\"1\":4}");
        ChipletMeasureEvent last = (ChipletMeasureEvent) posted.get(3);
        assertThat(last.last()).isTrue();
        assertThat(last.reportJson()).contains("chiplet-measure-report/1");
    }

    @Test
    void unchangedCountsArePostedOnce()
    {
        events.placement(new PlacementCounts("1", 10, 0, 0, Map.of(0, 10L)));
        events.placement(new PlacementCounts("1", 10, 0, 0, Map.of(0, 10L)));
        events.placement(new PlacementCounts("2", 10, 0, 0, Map.of(1, 10L)));
        events.placement(new PlacementCounts("1", 12, 0, 0, Map.of(0, 12L)));
        assertThat(posted).extracting(event -> ((ChipletPlacementEvent) event).executorId() + ":" + ((ChipletPlacementEvent) event).tasks())
                .containsExactly("1:10", "2:10", "1:12");
    }

    @Test
    void theMeasurementIsPostedWhenItChangedTheGuardsStopOnceAndTheLastAtTheEnd()
    {
        MeasuringListener measuring = new MeasuringListener(settings(), "slow app", () -> "app-2", clock::get);
        SparkListener poster = events.measurement(measuring::latest);
        poster.onStageCompleted(null);
        poster.onJobEnd(null);
        assertThat(posted).hasSize(1).allSatisfy(event -> assertThat(event).isInstanceOf(ChipletMeasureEvent.class));

        // Placed tasks 30 % slower: the guard stops placement.
        ArmAssignment assignment = new ArmAssignment(3);
        for (long task = 0; task < 200; task++) {
            Arm arm = assignment.of(0, (int) task, 0.5);
            measuring.onTaskEnd(taskEnd(task, arm == Arm.PLACED ? 130 + task % 7 : 100 + task % 5));
            clock.addAndGet(2_000);
            measuring.receive(new ArmReport("1", 0, Map.of(task, TaskArm.of(new DrawnArm(arm, 0.5)))));
            if (task % 50 == 49) {
                poster.onStageCompleted(null);
            }
        }
        poster.onJobEnd(null);
        measuring.onApplicationEnd(null);
        poster.onApplicationEnd(null);
        poster.onApplicationEnd(null);

        List<ChipletGuardEvent> guards = posted.stream().filter(ChipletGuardEvent.class::isInstance).map(ChipletGuardEvent.class::cast).toList();
        assertThat(guards).hasSize(1);
        assertThat(guards.getFirst().placing()).isFalse();
        assertThat(guards.getFirst().why()).contains("placement stopped");
        List<ChipletMeasureEvent> measures = posted.stream().filter(ChipletMeasureEvent.class::isInstance).map(ChipletMeasureEvent.class::cast).toList();
        // The first, then one at each stage end whose figures changed (placed work stops counting once placing
        // stopped), none at the unchanged job end, and the last.
        assertThat(measures.size()).isBetween(3, 6);
        assertThat(measures.getFirst().placedTasks() + measures.getFirst().controlTasks()).isZero();
        assertThat(measures).filteredOn(ChipletMeasureEvent::last).hasSize(1);
        for (int i = 1; i < measures.size() - 1; i++) {
            ChipletMeasureEvent before = measures.get(i - 1);
            ChipletMeasureEvent now = measures.get(i);
            assertThat(now.placedTasks() + "/" + now.controlTasks() + "/" + now.placing()).isNotEqualTo(before.placedTasks() + "/" + before.controlTasks() + "/" + before.placing());
        }
        assertThat(measures.getLast().last()).isTrue();
        assertThat(measures.getLast().placing()).isFalse();
        assertThat(measures.getLast().placedTasks() + measures.getLast().controlTasks()).isPositive();
    }

    @Test
    void aFailingBusSwitchesOnlyTheEventsOff()
    {
        List<String> tries = new ArrayList<>();
        ChipletEventLog failing = new ChipletEventLog(event -> {
            tries.add(event.getClass().getSimpleName());
            throw new IllegalStateException("bus gone");
        }, clock::get);
        failing.topology(new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(2, 2, 1 << 20, 8 << 20), false));
        failing.placement(new PlacementCounts("1", 10, 0, 0, Map.of(0, 10L)));
        assertThat(tries).containsExactly("ChipletTopologyEvent");
    }

    private static MeasureSettings settings()
    {
        return new MeasureSettings(true, 0.5, GuardMode.AUTO, Optional.empty(), OptionalLong.of(3), OptionalDouble.empty());
    }

    private static SparkListenerTaskEnd taskEnd(long task, long millis)
    {
        TaskMetrics metrics = TaskMetrics.empty();
        metrics.setExecutorRunTime(millis);
        metrics.setExecutorCpuTime(1_000_000);
        metrics.inputMetrics().incBytesRead(1000);
        metrics.inputMetrics().incRecordsRead(10);
        TaskInfo info = new TaskInfo(task, (int) task, 0, (int) task, 0L, "1", "host-a", TaskLocality.PROCESS_LOCAL(), false);
        return new SparkListenerTaskEnd(0, 0, "ResultTask", Success$.MODULE$, info, null, metrics);
    }
}
