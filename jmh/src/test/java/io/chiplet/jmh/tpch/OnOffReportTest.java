package io.chiplet.jmh.tpch;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class OnOffReportTest
{
    private static final OnOffComparison EVEN = new OnOffComparison(List.of(1, 6),
            List.of(Map.of(1, 2.0, 6, 1.0), Map.of(1, 9.0, 6, 0.5), Map.of(1, 1.5, 6, 1.2)),
            List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 0.9, 6, 2.5), Map.of(1, 1.1, 6, 1.0)));

    @Test
    void rendersHowTheRunWasMadeThePerQueryTableAndTheVerdict()
    {
        String section = report(OptionalDouble.of(1.5)).render(EVEN);

        assertThat(section)
                .startsWith("## Engine TPC-H SF 1: plugin on vs off\n\n")
                .contains("Measured 2026-11-23T12:00:00Z: `bin/chiplet bench --engine-tpch-sf 1 --rounds 3`, 2 queries, 3 interleaved rounds "
                        + "(after an untimed warm-up, a fresh engine per side and round, alternating which side goes first), "
                        + "JDK 25.0.3+9-LTS, 300 s, system load average up to 1.5 on 2 CPUs.\n\n")
                .contains("Both sides share `x=1`. Times are each query's median over the rounds.\n\n")
                .contains("| Query | on (s) | off (s) | on/off |\n|---|---:|---:|---:|\n| q1 | 2.000 | 1.000 | 2.000 |\n| q6 | 1.000 | 2.000 | 0.500 |\n")
                .contains("**Geometric mean of the on/off ratios: 1.000** (the target on a single-L3 machine, where placement cannot help and "
                        + "only the overhead shows: at most 1.02; met).")
                .doesNotContain("mostly noise");
    }

    @Test
    void warnsWhenOtherProcessesCompetedAndSaysNothingOfAnUnknownLoad()
    {
        assertThat(report(OptionalDouble.of(4.5)).render(EVEN))
                .contains("system load average up to 4.5 on 2 CPUs")
                .contains("**Other processes competed for the CPUs during this run, so the ratios below are mostly noise.**");
        assertThat(report(OptionalDouble.empty()).render(EVEN))
                .contains("JDK 25.0.3+9-LTS, 300 s.\n")
                .doesNotContain("load average")
                .doesNotContain("mostly noise");
    }

    @Test
    void saysWhenTheTargetIsNotMet()
    {
        OnOffComparison slower = new OnOffComparison(List.of(1), List.of(Map.of(1, 1.03)), List.of(Map.of(1, 1.0)));

        assertThat(report(OptionalDouble.empty()).render(slower)).contains("**Geometric mean of the on/off ratios: 1.030**").contains("at most 1.02; **not met**).");
        assertThat(OnOffReport.metTarget(1.0204)).isTrue();
        assertThat(OnOffReport.metTarget(1.0206)).isFalse();
        assertThat(OnOffReport.metTarget(0.9)).isTrue();
    }

    private static OnOffReport report(OptionalDouble peakLoad)
    {
        return new OnOffReport("Engine TPC-H SF 1: plugin on vs off", "bin/chiplet bench --engine-tpch-sf 1 --rounds 3",
                "after an untimed warm-up, a fresh engine per side and round, alternating which side goes first",
                "Both sides share `x=1`.", Instant.parse("2026-11-23T12:00:00.750Z"), Duration.ofSeconds(300), "25.0.3+9-LTS", peakLoad, 2);
    }
}
