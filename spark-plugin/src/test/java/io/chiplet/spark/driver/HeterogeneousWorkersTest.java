package io.chiplet.spark.driver;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.Advice;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.placement.PartitionSizing;
import io.chiplet.placement.SparkPartitionSettings;
import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.settings.PlacementMode;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two kinds of machine in one cluster, each read from its own snapshot root (as executors read
 * {@code CHIPLET_FS_ROOT} from their Worker's environment): the driver applies core's rule to all executors' chiplets
 * as one, counts adding up and the smallest per-core L3 setting the partition size, so a partition fits the cache of
 * whichever machine runs it. The driver's own machine never enters.
 */
class HeterogeneousWorkersTest
{
    @Test
    void countsAddUpAndTheSmallerCacheSetsThePartitionSize(@TempDir Path temp)
    {
        PartitionBasis epyc = machine("2xepyc7763-nps1", temp);
        PartitionBasis sapphireRapids = machine("2xspr8480-snc4", temp);
        assertThat(epyc).isNotEqualTo(sapphireRapids);

        FakePluginContext context = new FakePluginContext(Map.of("spark.master", "spark://m:7077"), message -> null);
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        driver.init(null, context);
        driver.receive(PluginMessages.encode(new TopologyReport("0", "epyc-1", PlacementMode.TASK, epyc)));
        driver.receive(PluginMessages.encode(new TopologyReport("1", "spr-1", PlacementMode.TASK, sapphireRapids)));

        SparkConf conf = context.conf();
        List<Advice.Setting> expected = SparkPartitionSettings.of(PartitionSizing.of(PartitionBasis.combine(List.of(epyc, sapphireRapids)), OptionalLong.empty()));
        for (Advice.Setting setting : expected) {
            assertThat(conf.get(setting.key())).as(setting.key()).isEqualTo(setting.value());
        }
        long smallerCoreL3 = Math.min(epyc.coreL3Bytes(), sapphireRapids.coreL3Bytes());
        assertThat(PartitionSizing.of(PartitionBasis.combine(List.of(epyc, sapphireRapids)), OptionalLong.empty()).targetBytes())
                .isLessThanOrEqualTo(smallerCoreL3);
        assertThat(Integer.parseInt(conf.get(SparkPartitionSettings.SHUFFLE_PARTITIONS)))
                .isGreaterThan(Integer.parseInt(setting(epyc, SparkPartitionSettings.SHUFFLE_PARTITIONS)))
                .isGreaterThan(Integer.parseInt(setting(sapphireRapids, SparkPartitionSettings.SHUFFLE_PARTITIONS)));
    }

    private static PartitionBasis machine(String snapshot, Path temp)
    {
        try {
            Path root = Snapshots.unpack(snapshot, Files.createDirectories(temp.resolve(snapshot)));
            Topology topology = TopologyDiscovery.discover(new DiscoveryOptions(Optional.of(root), Optional.empty(), 0));
            return PartitionBasis.of(topology, topology.online());
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String setting(PartitionBasis basis, String key)
    {
        return SparkPartitionSettings.of(PartitionSizing.of(basis, OptionalLong.empty())).stream().filter(setting -> setting.key().equals(key)).findFirst().orElseThrow().value();
    }
}
