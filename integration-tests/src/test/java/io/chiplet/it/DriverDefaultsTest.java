package io.chiplet.it;

import io.chiplet.topology.Snapshots;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin sizes only what the user left unset. */
class DriverDefaultsTest
{
    @Test
    void userSettingWinsAndTheRestIsSized(@TempDir Path temp)
            throws Exception
    {
        // On the snapshot's two one-CPU chiplets: two RDD partitions per core, a multiple of the 2 chiplets, so 4
        // (written out, not computed by core's rule)
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, temp));
        conf.remove("spark.plugins");
        conf.put("spark.sql.shuffle.partitions", "5");
        SparkSession spark = Spark.start(true, conf);
        try {
            assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo("5");
            assertThat(spark.sparkContext().getConf().get("spark.default.parallelism")).isEqualTo("4");
            assertThat(spark.sparkContext().defaultParallelism()).isEqualTo(4);
            assertThat(spark.range(0, 1000, 1, 3).selectExpr("id % 11 AS k").groupBy("k").count().count()).isEqualTo(11);
        }
        finally {
            Spark.stop(spark);
        }
    }
}
