package io.chiplet.cli;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AdviseRunTest
{
    @Test
    void readsEverySettingOfTheFixtures()
    {
        for (String machine : AdviseRun.MACHINES) {
            Map<String, String> spark = AdviseRun.settings("--engine", "spark", "--hwloc-xml", AdviseRun.fixture(machine).toString());
            assertThat(spark).containsKeys("spark.sql.shuffle.partitions", "spark.default.parallelism",
                    "spark.sql.adaptive.advisoryPartitionSizeInBytes", "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "spark.chiplet.policy");
            Map<String, String> trino = AdviseRun.settings("--engine", "trino", "--hwloc-xml", AdviseRun.fixture(machine).toString(), "--hosts", "2");
            assertThat(trino).containsKeys("task_concurrency", "min_hash_partition_count", "max_hash_partition_count");
        }
    }
}
