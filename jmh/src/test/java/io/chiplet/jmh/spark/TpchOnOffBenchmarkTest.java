package io.chiplet.jmh.spark;

import io.chiplet.measure.OnOffComparison;
import io.chiplet.jmh.tpch.TpchBenchArguments;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class TpchOnOffBenchmarkTest
{
    @Test
    void sectionNamesTheSparkRunAndThePartitionSettingsBothSidesUsed()
    {
        TpchBenchArguments arguments = TpchBenchArguments.parse(new String[] {"--tpch-sf", "1", "--rounds", "3", "--queries", "1,6"}, "--tpch-sf");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.sql.shuffle.partitions", "6");
        settings.put("spark.default.parallelism", "4");
        OnOffComparison comparison = new OnOffComparison(List.of(1, 6), List.of(Map.of(1, 2.0, 6, 1.0)), List.of(Map.of(1, 1.0, 6, 2.0)));

        String section = TpchOnOffBenchmark.report(arguments, settings, Instant.parse("2026-11-23T12:00:00Z"), Duration.ofSeconds(300), "25", OptionalDouble.of(1.5), 2)
                .render(comparison);

        assertThat(section)
                .startsWith("## Spark TPC-H SF 1: plugin on vs off\n")
                .contains("`bin/chiplet bench --tpch-sf 1 --rounds 3`, 2 queries, 1 interleaved round (after an untimed warm-up, "
                        + "a fresh `local[*]` SparkContext per side and round")
                .contains("Both sides use the partition settings the plugin chose (`spark.sql.shuffle.partitions=6`, `spark.default.parallelism=4`), "
                        + "so the ratio measures the plugin's placement and per-task overhead.")
                .contains("| q6 | 1.000 | 2.000 | 0.500 |");
        assertThat(TpchOnOffBenchmark.sectionName(TpchBenchArguments.parse(new String[] {"--tpch-sf", "0.01"}, "--tpch-sf")))
                .isEqualTo("Spark TPC-H SF 0.01: plugin on vs off");
    }
}
