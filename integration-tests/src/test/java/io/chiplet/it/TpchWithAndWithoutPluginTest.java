package io.chiplet.it;

import io.chiplet.spark.tpch.TpchQueries;
import io.chiplet.spark.tpch.TpchTables;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The plugin never changes an answer: all 22 TPC-H queries at SF 0.01, with and without it. */
class TpchWithAndWithoutPluginTest
{
    private static final double SCALE = 0.01;

    /**
     * Each placement mode ({@code spark.chiplet.mode}). The hook for {@code mode=executor}: add {@code "executor"}
     * here once ExecutorProcessPlacement is merged (spark-exec branch).
     */
    @ParameterizedTest(name = "mode={0}")
    @ValueSource(strings = {"task"})
    void allQueriesGiveIdenticalResults(String mode)
    {
        int cores = Runtime.getRuntime().availableProcessors();
        // Without the plugin, the partition count it would choose, so both runs do the same amount of work.
        Map<Integer, List<String>> without = runAll(false, Map.of("spark.sql.shuffle.partitions", Integer.toString(cores * 3)));
        Map<Integer, List<String>> with;
        try (LogCapture log = LogCapture.capture()) {
            with = runAll(true, Map.of("spark.chiplet.mode", mode));
            assertThat(log.warnings()).isEmpty();
        }

        assertThat(with.keySet()).containsExactlyElementsOf(TpchQueries.numbers());
        for (int query : TpchQueries.numbers()) {
            assertThat(with.get(query)).as("q%d", query).isNotEmpty().isEqualTo(without.get(query));
            assertThat(with.get(query)).as("q%d rows against the generator's own answer", query).hasSize(TpchQueries.expectedAtScale001(query).size());
        }
    }

    private static Map<Integer, List<String>> runAll(boolean withPlugin, Map<String, String> conf)
    {
        SparkSession spark = Spark.start(withPlugin, conf);
        try {
            if (withPlugin) {
                // The executor reported its chiplets while the context started: the session sees the sizing.
                assertThat(spark.conf().get("spark.sql.shuffle.partitions")).isEqualTo(Integer.toString(Runtime.getRuntime().availableProcessors() * 3));
            }
            TpchTables.register(spark, SCALE);
            Map<Integer, List<String>> results = new LinkedHashMap<>();
            for (int query : TpchQueries.numbers()) {
                results.put(query, spark.sql(TpchQueries.query(query)).collectAsList().stream().map(Row::toString).toList());
            }
            return results;
        }
        finally {
            Spark.stop(spark);
        }
    }
}
