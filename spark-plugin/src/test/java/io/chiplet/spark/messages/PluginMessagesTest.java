package io.chiplet.spark.messages;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PluginMessagesTest
{
    @Test
    void everyMessageRoundTripsThroughAString()
    {
        TopologyReport report = new TopologyReport("exec 7\t", "host-1.example", PlacementMode.EXECUTOR, new PartitionBasis(3, 24, 4L << 20, 32L << 20));
        SpreadHintRequest request = new SpreadHintRequest("12");
        SpreadHints hints = new SpreadHints(Map.of(3, 2, 17, 1));

        assertThat(PluginMessages.decode(PluginMessages.encode(report))).isEqualTo(report);
        assertThat(PluginMessages.decode(PluginMessages.encode(request))).isEqualTo(request);
        assertThat(PluginMessages.decode(PluginMessages.encode(hints))).isEqualTo(hints);
        assertThat(PluginMessages.decode(PluginMessages.encode(SpreadHints.NONE))).isEqualTo(SpreadHints.NONE);
        PlacementCounts counts = new PlacementCounts("3", 12, 1, 2, Map.of(0, 5L, 4, 6L));
        assertThat(PluginMessages.decode(PluginMessages.encode(counts))).isEqualTo(counts);
        TopologyReport share = new TopologyReport("2", "h", PlacementMode.TASK, new PartitionBasis(1, 1, 0, 0), true);
        assertThat(PluginMessages.decode(PluginMessages.encode(share))).isEqualTo(share);
        TopologyReport unleased = new TopologyReport("3", "h", PlacementMode.EXECUTOR, new PartitionBasis(4, 16, 0, 0), false);
        assertThat(PluginMessages.decode(PluginMessages.encode(unleased))).isEqualTo(unleased);
    }

    @Test
    void foreignOrBrokenMessagesAreUnreadableNotErrors()
    {
        assertThat(PluginMessages.decode(42)).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode(null)).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("hello")).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("chiplet/2\treport")).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("chiplet/1\tshout\tx")).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("chiplet/1\treport\t1\th\ttask\tx\t0\t1\towns-host")).isInstanceOf(PluginMessages.Unreadable.class);
        // The last field says whether the executor holds chiplets of its own; anything else is unreadable.
        assertThat(PluginMessages.decode("chiplet/1\treport\t1\th\ttask\t1\t1\t0\t0\tshares-host")).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("chiplet/1\thints\t3:0")).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("chiplet/1\thints\t3")).isInstanceOf(PluginMessages.Unreadable.class);
    }
}
