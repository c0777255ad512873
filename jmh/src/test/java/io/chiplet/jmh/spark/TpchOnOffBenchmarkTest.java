package io.chiplet.jmh.spark;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TpchOnOffBenchmarkTest
{
    @Test
    void reportsPerQueryMediansAndTheGeometricMeanOfTheirRatios()
    {
        TpchOnOffBenchmark.Arguments arguments = TpchOnOffBenchmark.Arguments.parse(new String[] {"--tpch-sf", "1", "--rounds", "3", "--queries", "1,6"});
        // q1: medians 2.0 on, 1.0 off (ratio 2); q6: medians 1.0 on, 2.0 off (ratio 0.5): geometric mean exactly 1.
        List<Map<Integer, Double>> on = List.of(Map.of(1, 2.0, 6, 1.0), Map.of(1, 9.0, 6, 0.5), Map.of(1, 1.5, 6, 1.2));
        List<Map<Integer, Double>> off = List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 0.9, 6, 2.5), Map.of(1, 1.1, 6, 1.0));
        String section = TpchOnOffBenchmark.render(arguments, Map.of("spark.sql.shuffle.partitions", "6"), on, off, Instant.parse("2026-11-23T12:00:00Z"),
                Duration.ofSeconds(300), 1.5, 2);

        assertThat(section)
                .startsWith("## Spark TPC-H SF 1: plugin on vs off\n")
                .contains("`bin/chiplet bench --tpch-sf 1 --rounds 3`, 2 queries, 3 interleaved rounds")
                .contains("`spark.sql.shuffle.partitions=6`")
                .contains("| q1 | 2.000 | 1.000 | 2.000 |")
                .contains("| q6 | 1.000 | 2.000 | 0.500 |")
                .contains("**Geometric mean of the on/off ratios: 1.000**")
                .contains("JDK " + Runtime.version() + ", 300 s, system load average up to 1.5 on 2 CPUs")
                .doesNotContain("mostly noise");

        String busy = TpchOnOffBenchmark.render(arguments, Map.of(), on, off, Instant.EPOCH, Duration.ofSeconds(300), 4.5, 2);
        assertThat(busy).contains("system load average up to 4.5 on 2 CPUs").contains("the ratios below are mostly noise");
    }

    @Test
    void rejectsBadArguments()
    {
        assertThatThrownBy(() -> TpchOnOffBenchmark.Arguments.parse(new String[] {"--tpch-sf", "0"})).hasMessageContaining("--scale-factor: expected a positive number");
        assertThatThrownBy(() -> TpchOnOffBenchmark.Arguments.parse(new String[] {"--queries", "1,23"})).hasMessageContaining("1 to 22, got 23");
        assertThatThrownBy(() -> TpchOnOffBenchmark.Arguments.parse(new String[] {"--rounds", "x"})).hasMessage("--rounds: not a number: 'x'");
        assertThatThrownBy(() -> TpchOnOffBenchmark.Arguments.parse(new String[] {"--quick", "x"})).hasMessageContaining("unknown option --quick");
        assertThat(TpchOnOffBenchmark.Arguments.parse(new String[] {"--root", "/tmp/r", "--no-report"}))
                .isEqualTo(new TpchOnOffBenchmark.Arguments(1, 3, io.chiplet.spark.tpch.TpchQueries.numbers(), Path.of("/tmp/r"), false));
    }
}
