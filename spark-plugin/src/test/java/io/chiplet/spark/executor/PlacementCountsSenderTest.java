package io.chiplet.spark.executor;

import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.spark.placement.PlacementMetrics;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class PlacementCountsSenderTest
{
    @Test
    void theLastRoundSendsTheCountsChangedOrNotAndTheTasksEndedSinceTheRoundBefore()
    {
        FakePluginContext context = new FakePluginContext(Map.of(), message -> null);
        PlacementMetrics metrics = new PlacementMetrics(List.of(0, 1));
        metrics.taskStarted(OptionalInt.of(1));
        TaskPlaceLog places = new TaskPlaceLog("7");
        places.ended(3, 41, 0, 1, Optional.empty(), "placed", 12, false);

        PlacementCountsSender sender = PlacementCountsSender.start(context, metrics, places, LoggerFactory.getLogger(PlacementCountsSenderTest.class));
        sender.stopAndSendLast();
        List<Object> first = context.asked().stream().map(PluginMessages::decode).toList();
        assertThat(first).hasSize(2);
        assertThat(first.get(0)).isEqualTo(PlacementCounts.of("7", metrics));
        assertThat(((PlacementCounts) first.get(0)).tasksByChiplet()).containsEntry(1, 1L);
        assertThat(first.get(1)).isInstanceOfSatisfying(TaskPlaces.class, sent -> assertThat(sent.isEmpty()).isFalse());

        sender.stopAndSendLast();
        List<Object> second = context.asked().stream().skip(2).map(PluginMessages::decode).toList();
        assertThat(second).as("the counts unchanged but sent; no task ended since").containsExactly(PlacementCounts.of("7", metrics));
    }
}
