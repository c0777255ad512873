package io.chiplet.spark.ui;

import io.chiplet.report.MachinePicture;
import io.chiplet.report.TaskView;
import io.chiplet.spark.events.ChipletPlacementEvent;
import io.chiplet.spark.events.ChipletSettingsEvent;
import io.chiplet.spark.events.ChipletTasksEvent;
import io.chiplet.spark.events.ChipletTopologyEvent;
import io.chiplet.topology.CpuSet;
import org.apache.spark.SparkConf;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationStart;
import org.apache.spark.status.ElementTrackingStore;
import org.apache.spark.util.kvstore.InMemoryStore;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletHistoryServerPluginTest
{
    @Test
    void theReplayedEventsAreKeptInTheApplicationsStoreAndDrawn()
            throws Exception
    {
        InMemoryStore store = new InMemoryStore();
        scala.collection.Seq<SparkListener> listeners = new ChipletHistoryServerPlugin().createListeners(new SparkConf(false), new ElementTrackingStore(store, new SparkConf(false)));
        assertThat(listeners.size()).isEqualTo(1);
        SparkListener listener = listeners.head();
        listener.onApplicationStart(new SparkListenerApplicationStart("nightly", scala.Option.apply("app-7"), 1000L, "user", scala.Option.empty(), scala.Option.empty(),
                scala.Option.empty()));
        MachinePicture host = new MachinePicture("snapshot:host-a", CpuSet.range(0, 7), CpuSet.range(0, 7), List.of(
                new MachinePicture.ChipletCpus(0, 0, 0, 32L << 20, List.of(CpuSet.of(0), CpuSet.of(1), CpuSet.of(2), CpuSet.of(3)), List.of()),
                new MachinePicture.ChipletCpus(1, 0, 0, 32L << 20, List.of(CpuSet.of(4), CpuSet.of(5), CpuSet.of(6), CpuSet.of(7)), List.of())), List.of(), Map.of(), List.of());
        listener.onOtherEvent(new ChipletTopologyEvent(1100, "0", "host-a", "task", 2, 8, 32L << 20, false, host.json(), "0-7"));
        listener.onOtherEvent(new ChipletPlacementEvent(1200, "0", 40, 4, 0, Map.of("0", 20L, "1", 16L)));
        listener.onOtherEvent(new ChipletSettingsEvent(1300, "1 executor", List.of("spark.sql.shuffle.partitions = 24: 3 per core")));
        listener.onOtherEvent(new ChipletTasksEvent(1400, "0", List.of(new ChipletTasksEvent.StageRow(3, 1, "placed", 16, 1600), new ChipletTasksEvent.StageRow(3, -1, "control", 4, 480)),
                List.of(new ChipletTasksEvent.TaskRow(3, 77, 5, 1, "4", "placed", 95, false), new ChipletTasksEvent.TaskRow(3, 78, 6, -1, "", "control", 120, true))));

        ChipletUiData data = store.read(ChipletUiData.class, ChipletUiData.ID);
        assertThat(data.applicationName).isEqualTo("nightly");
        assertThat(data.applicationId).isEqualTo("app-7");
        // Where tasks ran is kept folded, not as every interval's event.
        assertThat(data.events).hasSize(3);
        assertThat(data.tasks.stages()).hasSize(2);
        assertThat(data.tasks.recent()).extracting(TaskView.TaskRow::taskId).containsExactly(77L, 78L);

        ChipletPageModel model = new ChipletPageModel();
        data.events.forEach(model::add);
        model.taskView(data.tasks);
        assertThat(model.facts("log").tasksByChiplet()).containsExactly(Map.entry("0", 20L), Map.entry("1", 16L));
        String html = model.html("log");
        assertThat(html).contains("host-a").contains("chiplet 1").contains("spark.sql.shuffle.partitions").contains("href=\"docs/measuring.md\"");
        // The host's picture: the executor's CPUs marked, the tasks per chiplet in the chiplet's label.
        assertThat(html).contains("<svg").contains("data-executor=\"0\"").contains("chiplet 1 · L3 32 MiB · 16 tasks").contains("0, 1 (CPUs 0-7)");
        // Tasks per stage and the last tasks, each with its bound said.
        assertThat(html).contains("<td>3</td><td>0</td><td>1</td><td>placed</td><td>16</td><td>100 ms</td>").contains("<td>3</td><td>0</td><td>none</td><td>control</td><td>4</td><td>120 ms</td>")
                .contains("the last " + TaskView.MAX_STAGES + " stages at most").contains("<td>78</td><td>6</td><td>0</td><td>none</td><td>not bound</td><td>control</td><td>120 ms</td><td>failed</td>")
                .contains("at most " + TaskView.MAX_RECENT);
    }

    @Test
    void theJarCarriesTheDocsThePageLinksTo()
    {
        assertThat(ChipletDocs.page("measuring.md")).hasValueSatisfying(page -> assertThat(page).startsWith("# Measuring placement in place"));
        assertThat(ChipletDocs.page("../pom.xml")).isEmpty();
        assertThat(ChipletDocs.page("no-such-page.md")).isEmpty();
    }
}
