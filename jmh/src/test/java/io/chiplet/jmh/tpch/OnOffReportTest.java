package io.chiplet.jmh.tpch;

import io.chiplet.measure.OnOffComparison;
import io.chiplet.measure.PairedBootstrap;
import io.chiplet.measure.RatioEstimate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class OnOffReportTest
{
    private static final OnOffComparison NOISY = new OnOffComparison(List.of(1, 6),
            List.of(Map.of(1, 2.0, 6, 1.0), Map.of(1, 9.0, 6, 0.5), Map.of(1, 1.5, 6, 1.2)),
            List.of(Map.of(1, 1.0, 6, 2.0), Map.of(1, 0.9, 6, 2.5), Map.of(1, 1.1, 6, 1.0)));

    @Test
    void rendersHowTheRunWasMadeThePerQueryTableAndTheVerdict()
    {
        String section = report(OptionalDouble.of(1.5)).render(NOISY);

        assertThat(section)
                .startsWith("## Engine TPC-H SF 1: plugin on vs off\n\n")
                .contains("Measured 2026-11-23T12:00:00Z: `bin/chiplet bench --engine-tpch-sf 1 --rounds 3`, 2 queries, 3 interleaved rounds "
                        + "(after an untimed warm-up, a fresh engine per side and round, alternating which side goes first), "
                        + "JDK 25.0.3+9-LTS, 300 s, system load average up to 1.5 on 2 CPUs.\n\n")
                .contains("Both sides share `x=1`. Times are each query's median over the rounds; its ratio is median on over median off.\n\n")
                .contains("| Query | on (s) | off (s) | on/off |\n|---|---:|---:|---:|\n| q1 | 2.000 | 1.000 | 2.000 |\n| q6 | 1.000 | 2.000 | 0.500 |\n")
                .doesNotContain("mostly noise");
        // Pairs by round: q1 2/1, 9/0.9, 1.5/1.1 and q6 1/2, 0.5/2.5, 1.2/1 have a geometric mean of exp(0.1976) = 1.218.
        RatioEstimate estimate = NOISY.estimate(PairedBootstrap.standard());
        assertThat(section)
                .contains(String.format(java.util.Locale.ROOT, "**Paired geometric mean on/off: 1.218, 95 %% CI [%.3f, %.3f]** (CI width %.3f; 2 queries x 3 rounds",
                        estimate.low(), estimate.high(), estimate.width()))
                .contains("10000 resamples, fixed seed")
                .contains("The interval holds 1.0: no difference between plugin on and off is measurable in this run.")
                .contains("the whole interval within [0.98, 1.02] and holding 1.0 or below it; **not met**: the interval is ")
                .contains(" wide after 3 rounds, the target 0.04;");
    }

    @Test
    void writesThePluginsKindOfReportWithTheSameFigureAndVerdict(@TempDir Path directory)
            throws Exception
    {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        report(OptionalDouble.of(1.5)).writeMeasureReport(NOISY, directory.resolve("bench"), "Engine TPC-H SF 1: plugin on vs off", new PrintStream(printed, true, StandardCharsets.UTF_8));

        RatioEstimate estimate = NOISY.estimate(PairedBootstrap.standard());
        String line = printed.toString(StandardCharsets.UTF_8);
        // The verdict, then what the data could have detected, then what the figure rests on.
        assertThat(line).startsWith(String.format(java.util.Locale.ROOT, "Chiplet placement measured on/off for Engine TPC-H SF 1: plugin on vs off: speed-up %.3fx (95%% CI %.3f-%.3f, noise explains it; "
                + "no difference measurable; an effect beyond ", 1 / estimate.ratio(), 1 / estimate.high(), 1 / estimate.low()))
                .containsPattern("would have shown\\) from 6 placed and 6 control query runs in 2 query texts");
        Path json = directory.resolve("bench/chiplet-measure-Engine-TPC-H-SF-1-plugin-on-vs-off.json");
        assertThat(Files.readString(json)).contains("\"kind\" : \"chiplet-measure-report/1\"", "\"verdict\" : \"noise explains it\"",
                "after an untimed warm-up, a fresh engine per side and round");
        assertThat(Files.readString(directory.resolve("bench/chiplet-measure-Engine-TPC-H-SF-1-plugin-on-vs-off.html"))).contains("<svg");
    }

    @Test
    void warnsWhenOtherProcessesCompetedAndSaysNothingOfAnUnknownLoad()
    {
        assertThat(report(OptionalDouble.of(4.5)).render(NOISY))
                .contains("system load average up to 4.5 on 2 CPUs")
                .contains("**Other processes competed for the CPUs during this run, so the ratios below are mostly noise.**");
        assertThat(report(OptionalDouble.empty()).render(NOISY))
                .contains("JDK 25.0.3+9-LTS, 300 s.\n")
                .doesNotContain("load average")
                .doesNotContain("mostly noise");
    }

    @Test
    void aTightIntervalAroundOneMeetsTheTargetAndAConsistentCostDoesNot()
    {
        List<Integer> queries = List.of(1, 2, 3, 4);
        List<Map<Integer, Double>> off = List.of(Map.of(1, 1.0, 2, 2.0, 3, 3.0, 4, 4.0), Map.of(1, 1.0, 2, 2.0, 3, 3.0, 4, 4.0));
        OnOffComparison tight = new OnOffComparison(queries,
                List.of(Map.of(1, 1.005, 2, 1.99, 3, 3.0, 4, 4.02), Map.of(1, 0.995, 2, 2.01, 3, 2.99, 4, 3.98)), off);
        OnOffComparison slower = new OnOffComparison(queries,
                List.of(Map.of(1, 1.03, 2, 2.06, 3, 3.09, 4, 4.12), Map.of(1, 1.03, 2, 2.06, 3, 3.09, 4, 4.12)), off);

        assertThat(report(OptionalDouble.empty()).render(tight)).contains("holding 1.0 or below it; met.").contains("no difference between plugin on and off is measurable");
        assertThat(report(OptionalDouble.empty()).render(slower))
                .contains("**Paired geometric mean on/off: 1.030, 95 % CI [1.030, 1.030]**")
                .contains("**not met**: the plugin measurably costs time here")
                .doesNotContain("no difference");
    }

    @Test
    void judgesTheFiguresAsPrinted()
    {
        assertThat(OnOffReport.verdict(new RatioEstimate(1.0, 0.9796, 1.0204, 0.95, 0, 22, 66, 10_000), 3)).isEqualTo("met");
        assertThat(OnOffReport.verdict(new RatioEstimate(1.0, 0.9796, 1.0206, 0.95, 0, 22, 66, 10_000), 3)).startsWith("**not met**: the interval is 0.041 wide");
        // 0.06 wide after 5 rounds: (0.06 / 0.04)^2 x 5 = 11.25, so 12 rounds were it all round-to-round noise.
        assertThat(OnOffReport.verdict(new RatioEstimate(1.0, 0.97, 1.03, 0.95, 0, 22, 66, 10_000), 5)).isEqualTo("**not met**: the interval is 0.060 wide "
                + "after 5 rounds, the target 0.04; more rounds (`--rounds`) narrow the round-to-round part of it (were all of it that, about 12 rounds "
                + "would do), a quieter machine both parts");
        assertThat(OnOffReport.verdict(new RatioEstimate(1.01, 1.001, 1.02, 0.95, 0, 22, 66, 10_000), 3)).startsWith("**not met**: the plugin measurably costs");
        assertThat(OnOffReport.verdict(new RatioEstimate(0.95, 0.94, 0.96, 0.95, 0, 22, 66, 10_000), 3)).startsWith("the plugin measurably saves time here");
        assertThat(OnOffReport.verdict(new RatioEstimate(1.076, 1.024, 1.128, 0.95, 0, 22, 22, 10_000), 1)).startsWith("**not judged**: one round");
    }

    private static OnOffReport report(OptionalDouble peakLoad)
    {
        return new OnOffReport("Engine TPC-H SF 1: plugin on vs off", "bin/chiplet bench --engine-tpch-sf 1 --rounds 3",
                "after an untimed warm-up, a fresh engine per side and round, alternating which side goes first",
                "Both sides share `x=1`.", Instant.parse("2026-11-23T12:00:00.750Z"), Duration.ofSeconds(300), "25.0.3+9-LTS", peakLoad, 2);
    }
}
