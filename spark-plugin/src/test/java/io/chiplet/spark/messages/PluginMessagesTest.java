package io.chiplet.spark.messages;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class PluginMessagesTest
{
    @Test
    void everyMessageRoundTripsThroughAString()
    {
        TopologyReport report = new TopologyReport("exec 7\t", "host-1.example", PlacementMode.EXECUTOR, new PartitionBasis(3, 24, 4L << 20, 32L << 20), true);
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
        LeaseClaim claim = new LeaseClaim("exec,1", new LeaseScope("6a0c7d1e-1", "2049:77", Path.of("/hadoop/yarn/local/usercache/a b/tmp")), new TreeSet<>(List.of(0, 3)));
        assertThat(PluginMessages.decode(PluginMessages.encode(claim))).isEqualTo(claim);
        LeaseVerdict verdict = new LeaseVerdict(new TreeSet<>(List.of(0, 1)), new TreeSet<>(List.of("1", "exec,2")), true);
        assertThat(PluginMessages.decode(PluginMessages.encode(verdict))).isEqualTo(verdict);
        assertThat(PluginMessages.decode(PluginMessages.encode(LeaseVerdict.SHARED_DIRECTORY))).isEqualTo(LeaseVerdict.SHARED_DIRECTORY);
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
        assertThat(PluginMessages.decode("chiplet/1\tlease-verdict\t0\t1\tmaybe")).isInstanceOf(PluginMessages.Unreadable.class);
        // chiplets held without a holder: not a verdict
        assertThat(PluginMessages.decode("chiplet/1\tlease-verdict\t0\t\tknown-kernel")).isInstanceOf(PluginMessages.Unreadable.class);
        assertThat(PluginMessages.decode("chiplet/1\tlease-claim\t1\t\t1:2\t/tmp\t0")).isInstanceOf(PluginMessages.Unreadable.class);
    }
}
