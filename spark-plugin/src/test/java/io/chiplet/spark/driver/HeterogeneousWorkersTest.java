package io.chiplet.spark.driver;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

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
        driver.receive(PluginMessages.encode(new TopologyReport("0", "epyc-1", PlacementMode.TASK, epyc, false)));
        driver.receive(PluginMessages.encode(new TopologyReport("1", "spr-1", PlacementMode.TASK, sapphireRapids, false)));

        // Written out, not computed by core's rule: 3 and 2 per core of 128 + 112 cores (multiples of 16 + 8 chiplets);
        // one core's share of L3 is 4 MiB on the EPYC and 1.9 MiB on Sapphire Rapids, so 1 MiB partitions for both.
        // Alone, the EPYC would get 384 and 256 at 4 MiB, Sapphire Rapids 336 and 224 at 1 MiB.
        SparkConf conf = context.conf();
        assertThat(conf.get("spark.sql.shuffle.partitions")).isEqualTo("720");
        assertThat(conf.get("spark.default.parallelism")).isEqualTo("480");
        assertThat(conf.get("spark.sql.adaptive.advisoryPartitionSizeInBytes")).isEqualTo("1m");
        assertThat(conf.get("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes")).isEqualTo("4m");
        assertThat(epyc.coreL3Bytes()).isEqualTo(4L << 20);
        assertThat(sapphireRapids.coreL3Bytes()).isEqualTo(1_966_080L);
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
}
