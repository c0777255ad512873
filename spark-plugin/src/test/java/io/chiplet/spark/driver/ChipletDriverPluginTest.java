package io.chiplet.spark.driver;

import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.messages.PlacementCounts;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.SpreadHintRequest;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.skew.SpreadHints;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletDriverPluginTest
{
    private static final long MIB = 1L << 20;

    @Test
    void sizesOnlyWhatTheUserLeftUnsetAndFollowsNewExecutors()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.sql.shuffle.partitions", "5"), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        assertThat(driver.init(null, context)).isEmpty();
        SparkConf conf = context.conf();

        assertThat(receive(driver, new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false))).isEqualTo(SpreadHints.NONE);
        assertThat(conf.get("spark.sql.shuffle.partitions")).isEqualTo("5");
        assertThat(conf.get("spark.default.parallelism")).isEqualTo("128");
        assertThat(conf.get("spark.sql.adaptive.advisoryPartitionSizeInBytes")).isEqualTo("4m");

        // A second host doubles the chiplets; a second executor on the first host adds none.
        receive(driver, new TopologyReport("2", "node-2", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false));
        receive(driver, new TopologyReport("3", "node-1", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false));
        assertThat(conf.get("spark.default.parallelism")).isEqualTo("256");

        // Set by someone else after start: theirs from then on.
        conf.set("spark.default.parallelism", "17");
        receive(driver, new TopologyReport("4", "node-3", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false));
        assertThat(conf.get("spark.default.parallelism")).isEqualTo("17");
        assertThat(conf.get("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes")).isEqualTo("16m");
    }

    @Test
    void removedExecutorsStopCountingAndSessionsFollow()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.master", "spark://m:7077", "spark.cores.max", "2", "spark.executor.cores", "1"), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin(new io.chiplet.spark.skew.StageSkewTracker(), session -> (FakeSession) session);
        driver.init(null, context);
        SparkConf conf = context.conf();
        FakeSession notebook = new FakeSession();
        FakeSession mine = new FakeSession().with("spark.sql.shuffle.partitions", "40");
        // Sessions made before any executor reported (workers started after the session).
        driver.registerSession(notebook);
        driver.registerSession(mine);

        receive(driver, new TopologyReport("0", "node-1", PlacementMode.TASK, new PartitionBasis(1, 1, 4 * MIB, 32 * MIB), false));
        assertThat(notebook.settings).containsEntry("spark.sql.shuffle.partitions", "3");
        receive(driver, new TopologyReport("1", "node-2", PlacementMode.TASK, new PartitionBasis(1, 1, 4 * MIB, 32 * MIB), false));
        assertThat(notebook.settings).containsEntry("spark.sql.shuffle.partitions", "6");
        assertThat(conf.get("spark.default.parallelism")).isEqualTo("4");
        assertThat(mine.settings).containsEntry("spark.sql.shuffle.partitions", "40");

        // Spark removes executor 1 (killed, or released by dynamic allocation): sized for one host again.
        driver.forget("1");
        assertThat(notebook.settings).containsEntry("spark.sql.shuffle.partitions", "3");
        assertThat(conf.get("spark.default.parallelism")).isEqualTo("2");
        driver.forget("1");
        // The last executor gone: the last figure stands.
        driver.forget("0");
        assertThat(notebook.settings).containsEntry("spark.sql.shuffle.partitions", "3");
        assertThat(mine.settings).containsEntry("spark.sql.shuffle.partitions", "40");
    }

    @Test
    void theSessionExtensionIsAppendedToTheUsersAndConnectKeepsSparksPythonDaemon()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.sql.extensions", "com.example.Mine", "spark.plugins", "org.apache.spark.sql.connect.SparkConnectPlugin"), message -> null);
        Map<String, String> extraConf = new ChipletDriverPlugin().init(null, context);

        assertThat(context.conf().get("spark.sql.extensions")).isEqualTo("com.example.Mine," + ChipletSessionExtension.class.getName());
        assertThat(extraConf).containsKey(ChipletDriverPlugin.ISOLATED_PYTHON_SESSIONS);
    }

    @Test
    void executorModeCountsEveryExecutorsLease()
    {
        PartitionBasis cluster = ChipletDriverPlugin.cluster(List.of(
                new TopologyReport("1", "node-1", PlacementMode.EXECUTOR, new PartitionBasis(1, 16, 2 * MIB, 32 * MIB), true),
                new TopologyReport("2", "node-1", PlacementMode.EXECUTOR, new PartitionBasis(1, 16, 2 * MIB, 32 * MIB), true),
                new TopologyReport("3", "node-2", PlacementMode.EXECUTOR, new PartitionBasis(1, 16, 2 * MIB, 32 * MIB), true)));

        assertThat(cluster).isEqualTo(new PartitionBasis(3, 48, 2 * MIB, 32 * MIB));
    }

    @Test
    void executorModeUnderWimLeasesNothingSoItsExecutorsCountTheirHostOnce()
    {
        // Two wim executors on node-1, each reporting the host's 4 chiplets, nothing leased; one on node-2.
        PartitionBasis host = new PartitionBasis(4, 16, 2 * MIB, 8 * MIB);
        PartitionBasis cluster = ChipletDriverPlugin.cluster(List.of(
                new TopologyReport("1", "node-1", PlacementMode.EXECUTOR, host, false),
                new TopologyReport("2", "node-1", PlacementMode.EXECUTOR, host, false),
                new TopologyReport("3", "node-2", PlacementMode.EXECUTOR, host, false)));
        assertThat(cluster).isEqualTo(new PartitionBasis(8, 32, 2 * MIB, 8 * MIB));

        // wicp-local: each leased one chiplet of node-1 and counts it.
        PartitionBasis leased = new PartitionBasis(1, 4, 2 * MIB, 8 * MIB);
        assertThat(ChipletDriverPlugin.cluster(List.of(
                new TopologyReport("1", "node-1", PlacementMode.EXECUTOR, leased, true),
                new TopologyReport("2", "node-1", PlacementMode.EXECUTOR, leased, true))))
                .isEqualTo(new PartitionBasis(2, 8, 2 * MIB, 8 * MIB));
    }

    @Test
    void badSettingSwitchesExecutorsOffAndLeavesSparkAlone()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.adaptive.intervalMs", "-5"), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin();

        Map<String, String> extraConf = driver.init(null, context);

        assertThat(extraConf).containsOnlyKeys(ChipletDriverPlugin.DISABLED_BY_DRIVER);
        assertThat(extraConf.get(ChipletDriverPlugin.DISABLED_BY_DRIVER)).contains("spark.chiplet.adaptive.intervalMs", "-5");
        assertThat(receive(driver, new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false))).isEqualTo(SpreadHints.NONE);
        assertThat(context.conf().contains("spark.default.parallelism")).isFalse();
    }

    @Test
    void resizeOffLeavesPartitionSettingsAlone()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.partitions.resize", "false"), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        assertThat(driver.init(null, context)).isEmpty();

        receive(driver, new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false));

        assertThat(context.conf().contains("spark.sql.shuffle.partitions")).isFalse();
        assertThat(context.conf().contains("spark.default.parallelism")).isFalse();
    }

    @Test
    void unexpectedMessageIsAnsweredNotThrown()
    {
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        driver.init(null, new FakePluginContext(Map.of(), message -> null));

        assertThat(driver.receive("hello")).isEqualTo(PluginMessages.encode(SpreadHints.NONE));
        assertThat(driver.receive(new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false))).isEqualTo(PluginMessages.encode(SpreadHints.NONE));
        assertThat(driver.receive("chiplet/2\treport\tsomething newer")).isEqualTo(PluginMessages.encode(SpreadHints.NONE));
        // Still on: a report after them is used.
        receive(driver, new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(8, 64, 4 * MIB, 32 * MIB), false));
        assertThat(driver.receive(PluginMessages.encode(new SpreadHintRequest("1")))).isInstanceOf(String.class);
    }

    @Test
    void executorsCountsAndSharesBecomeDriverGauges()
    {
        FakePluginContext context = new FakePluginContext(Map.of(), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        driver.init(null, context);
        receive(driver, new TopologyReport("0", "node-1", PlacementMode.TASK, new PartitionBasis(1, 1, 32 * MIB, 32 * MIB), true));
        receive(driver, new TopologyReport("1", "node-1", PlacementMode.TASK, new PartitionBasis(1, 1, 32 * MIB, 32 * MIB), true));
        // counts come one-way: no reply, which Spark would log a warning about
        assertThat(driver.receive(PluginMessages.encode(new PlacementCounts("0", 5, 0, 1, Map.of(0, 5L))))).isNull();
        driver.receive(PluginMessages.encode(new PlacementCounts("1", 3, 1, 0, Map.of(1, 2L))));
        // A later count of an executor replaces its earlier one.
        driver.receive(PluginMessages.encode(new PlacementCounts("1", 4, 1, 0, Map.of(1, 3L))));

        var gauges = context.metricRegistry().getGauges();
        assertThat(gauges.get("cluster.executors").getValue()).isEqualTo(2);
        assertThat(gauges.get("cluster.executors.sharingHost").getValue()).isEqualTo(2L);
        // Shares of one host add up: two executors, one chiplet each.
        assertThat(gauges.get("cluster.chiplets").getValue()).isEqualTo(2);
        assertThat(gauges.get("cluster.tasks").getValue()).isEqualTo(9L);
        assertThat(gauges.get("cluster.tasks.unplaced").getValue()).isEqualTo(1L);
        assertThat(gauges.get("cluster.tasks.failed").getValue()).isEqualTo(1L);
        assertThat(gauges.get("cluster.tasks.chiplet.0").getValue()).isEqualTo(5L);
        assertThat(gauges.get("cluster.tasks.chiplet.1").getValue()).isEqualTo(3L);
    }

    /** As an executor sends it: encoded, and the reply (always a String, which any executor can decode) decoded. */
    private static Object receive(ChipletDriverPlugin driver, TopologyReport report)
    {
        Object reply = driver.receive(PluginMessages.encode(report));
        assertThat(reply).isInstanceOf(String.class);
        return PluginMessages.decode(reply);
    }
}
