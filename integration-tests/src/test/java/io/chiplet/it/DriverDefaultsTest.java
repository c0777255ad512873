package io.chiplet.it;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin sizes only what the user left unset. */
class DriverDefaultsTest
{
    @Test
    void userSettingWinsAndTheRestIsSized()
    {
        // Core's rule for this machine: two RDD partitions per core, a multiple of the chiplets.
        int parallelism = CoreSizing.live().rddPartitions();
        SparkSession spark = Spark.start(true, Map.of("spark.sql.shuffle.partitions", "5"));
        try {
            assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo("5");
            assertThat(spark.sparkContext().getConf().get("spark.default.parallelism")).isEqualTo(Integer.toString(parallelism));
            assertThat(spark.sparkContext().defaultParallelism()).isEqualTo(parallelism);
            assertThat(spark.range(0, 1000, 1, 3).selectExpr("id % 11 AS k").groupBy("k").count().count()).isEqualTo(11);
        }
        finally {
            Spark.stop(spark);
        }
    }
}
