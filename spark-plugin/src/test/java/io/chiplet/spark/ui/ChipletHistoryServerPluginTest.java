package io.chiplet.spark.ui;

import io.chiplet.spark.events.ChipletPlacementEvent;
import io.chiplet.spark.events.ChipletSettingsEvent;
import io.chiplet.spark.events.ChipletTopologyEvent;
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
        listener.onOtherEvent(new ChipletTopologyEvent(1100, "0", "host-a", "task", 2, 8, 32L << 20, false));
        listener.onOtherEvent(new ChipletPlacementEvent(1200, "0", 40, 4, 0, Map.of("0", 20L, "1", 16L)));
        listener.onOtherEvent(new ChipletSettingsEvent(1300, "1 executor", List.of("spark.sql.shuffle.partitions = 24: 3 per core")));

        ChipletUiData data = store.read(ChipletUiData.class, ChipletUiData.ID);
        assertThat(data.applicationName).isEqualTo("nightly");
        assertThat(data.applicationId).isEqualTo("app-7");
        assertThat(data.events).hasSize(3);

        ChipletPageModel model = new ChipletPageModel();
        data.events.forEach(model::add);
        assertThat(model.facts("log").tasksByChiplet()).containsExactly(Map.entry("0", 20L), Map.entry("1", 16L));
        assertThat(model.html("log")).contains("host-a").contains("chiplet 1").contains("spark.sql.shuffle.partitions").contains("href=\"docs/measuring.md\"");
    }

    @Test
    void theJarCarriesTheDocsThePageLinksTo()
    {
        assertThat(ChipletDocs.page("measuring.md")).hasValueSatisfying(page -> assertThat(page).startsWith("# Measuring placement in place"));
        assertThat(ChipletDocs.page("../pom.xml")).isEmpty();
        assertThat(ChipletDocs.page("no-such-page.md")).isEmpty();
    }
}
