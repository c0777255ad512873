package io.chiplet.spark.messages;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseScope;
import io.chiplet.affinity.LeaseVerdict;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.wire.Unreadable;
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
        TopologyReport pictured = new TopologyReport("4", "h", PlacementMode.TASK, new PartitionBasis(2, 8, 0, 0), false, "{\"kind\":\"chiplet.machine-picture/1\",\"source\":\"a\tb\"}", "0-3,8");
        assertThat(PluginMessages.decode(PluginMessages.encode(pictured))).isEqualTo(pictured);
        TaskPlaces places = new TaskPlaces("exec 1", List.of(new TaskPlaces.StageChiplet(2, 0, "placed", 10, 900), new TaskPlaces.StageChiplet(2, -1, "", 3, 10)),
                List.of(new TaskPlaces.TaskPlace(2, 41, 7, 0, "0-1,4", "placed", 88, false), new TaskPlaces.TaskPlace(2, 42, 8, -1, "", "control", 91, true)));
        assertThat(PluginMessages.decode(PluginMessages.encode(places))).isEqualTo(places);
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
    void foreignOrBrokenMessagesAreUnreadableNamingTheMessageAndField()
    {
        assertThat(why(42)).isEqualTo("not a chiplet plugin message: java.lang.Integer");
        assertThat(why(null)).isEqualTo("not a chiplet plugin message: null");
        assertThat(why("hello")).isEqualTo("not a chiplet/2 message: hello");
        // another version's message (chiplet/1 decoded the control share differently): not read at all
        assertThat(why("chiplet/1\thint-request\t1")).startsWith("not a chiplet/2 message");
        assertThat(why("chiplet/2\treport")).startsWith("malformed report message (expected 10 fields (executor, host, mode, chiplets");
        assertThat(why("chiplet/2\tshout\tx")).isEqualTo("unknown kind 'shout' of a chiplet/2 message");
        assertThat(why("chiplet/2\treport\t1\th\ttask\tx\t0\t1\t1\town-chiplets\t\t")).startsWith("malformed report message (field chiplets: expected a whole number, got 'x')");
        // The last field says whether the executor holds chiplets of its own; anything else is unreadable.
        assertThat(why("chiplet/2\treport\t1\th\ttask\t1\t1\t0\t0\tshares-host\t\t")).startsWith("malformed report message (field own chiplets: expected one of");
        assertThat(why("chiplet/2\treport\t1\th\tsideways\t1\t1\t0\t0\town-chiplets\t\t")).startsWith("malformed report message (field mode: expected one of");
        assertThat(why("chiplet/2\thints\t3:0")).startsWith("malformed hints message (");
        assertThat(why("chiplet/2\thints\t3")).startsWith("malformed hints message (field chiplets by stage: expected comma-separated key:value");
        assertThat(why("chiplet/2\tlease-verdict\t0\t~1\tmaybe")).startsWith("malformed lease-verdict message (field first on kernel: expected one of");
        // chiplets held without a holder: not a verdict
        assertThat(why("chiplet/2\tlease-verdict\t0\t\tknown-kernel")).startsWith("malformed lease-verdict message (");
        assertThat(why("chiplet/2\tlease-claim\t1\t\t1:2\t/tmp\t0")).startsWith("malformed lease-claim message (");
        assertThat(why("chiplet/2\ttasks\t1\t3:0:placed:x:5\t")).startsWith("malformed tasks message (field stages: expected comma-separated stage:chiplet:arm:tasks:millis rows");
        assertThat(why("chiplet/2\ttasks\t1\t\t3:7:1:0:0-3:placed:12")).startsWith("malformed tasks message (field recent tasks: expected comma-separated");
        assertThat(why("chiplet/2\tcounts\t1\t2\t0\t0\t0:1,0:1")).startsWith("malformed counts message (field tasks by chiplet: expected comma-separated key:value whole numbers, each key once");
    }

    private static String why(Object message)
    {
        Object decoded = PluginMessages.decode(message);
        assertThat(decoded).as("%s", message).isInstanceOf(Unreadable.class);
        return ((Unreadable) decoded).why();
    }
}
