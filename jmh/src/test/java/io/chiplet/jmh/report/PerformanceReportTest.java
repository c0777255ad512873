package io.chiplet.jmh.report;

import io.chiplet.jmh.workload.TestTopologies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;

import java.io.ByteArrayInputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PerformanceReportTest
{
    private static final Instant WHEN = Instant.parse("2026-11-23T09:30:00Z");
    private static final MachineSummary MACHINE = MachineSummary.of(TestTopologies.singleL3(3, 8L << 20), false);

    @TempDir
    Path temp;

    @Test
    void readsJmhJsonRows()
    {
        List<JmhResult> results = JmhResults.read(resource("/jmh/small-result.json"));

        assertThat(results).hasSize(9);
        JmhResult first = results.getFirst();
        assertThat(first.className()).isEqualTo("StreamBenchmark");
        assertThat(first.method()).isEqualTo("triad");
        assertThat(first.params()).containsEntry("placement", "wim").containsEntry("workingSet", "below-l3");
        assertThat(first.score()).isEqualTo(200.0);
        assertThat(first.unit()).isEqualTo("ops/s");
        assertThat(results.get(1).scoreError()).as("JMH writes \"NaN\" for a missing error").isNaN();
        assertThat(results.get(5).secondaryScore("ping")).hasValue(100.0);
        assertThat(results.get(8).params()).isEmpty();
    }

    @Test
    void tablesShowEachPolicyRelativeToWimAtTheSameSize()
    {
        JmhSection section = render();

        assertThat(section.markdown())
                .contains("#### Stream.triad (ops/s)")
                .contains("| Policy | below-l3 | beyond |")
                .contains("| wim | **1.00×** 200 ±5% | **1.00×** 50.00 ±2% |")
                .contains("| wicp-local | **1.50×** 300 | **0.80×** 40.00 ±5% |")
                .contains("![Stream.triad](perf/this-machine-stream-triad.svg)");
        // GUPS was measured without wim: the absolute score only, and no chart
        assertThat(section.markdown()).contains("| wicp-mixed | 12.50 ±4% |");
        assertThat(section.svgs()).containsOnlyKeys("this-machine-stream-triad.svg", "this-machine-core-to-core.svg");
    }

    @Test
    void relativeThroughputInvertsForTimePerOperation()
    {
        List<JmhResult> rows = List.of(
                new JmhResult("x.KBenchmark.k", "avgt", 1, Map.of("placement", "wim", "workingSet", "beyond"), 10, 0, "ms/op", Map.of()),
                new JmhResult("x.KBenchmark.k", "avgt", 1, Map.of("placement", "wic", "workingSet", "beyond"), 5, 0, "ms/op", Map.of()));

        assertThat(WorkloadTables.relativeToBaseline(rows, "wic", "beyond")).hasValue(2.0);
        assertThat(WorkloadTables.relativeToBaseline(rows, "wic", "below-l3")).isEmpty();
    }

    @Test
    void latencyIsHalfTheRoundTripInASymmetricMatrix()
    {
        String markdown = render().markdown();

        assertThat(markdown)
                .contains("### Core-to-core latency")
                .contains("| 2 | 50.0 ns | 150.0 ns | 150.0 ns |")
                .contains("| CPU 0 | – | 50.0 ns | 150.0 ns |")
                .contains("| CPU 2 | 150.0 ns | – | – |")
                .doesNotContain("time slice")
                .contains("**not pinned**");
    }

    @Test
    void microBenchmarksAreListedGenericallyWithUnits()
    {
        assertThat(render().markdown())
                .contains("### Micro-benchmarks")
                .contains("| CounterBenchmark.read |  | thrpt | 2.50e+07 | ± 1.00e+05 | ops/s |")
                .contains("| PinBenchmark.pinAndRestore | implementation=ffm | avgt | 1235 | ± 20.25 | ns/op |");
    }

    @Test
    void machineSectionSaysPlainlyThatOneL3CannotShowChipletEffects()
    {
        assertThat(render().markdown())
                .contains("| CPUs (allowed) / cores | 3 / 3 |")
                .contains("1 instance(s); 8 MiB per chiplet, 8 MiB in all")
                .contains("below-l3 4 MiB, between 12 MiB, beyond 32 MiB")
                .contains("**This machine has a single L3 cache.**")
                .contains("cannot show chiplet effects");
    }

    @Test
    void severalL3sDoNotGetTheSingleL3Warning()
    {
        MachineSummary epyc = MachineSummary.of(TestTopologies.dualEpyc7763(), true);
        String markdown = JmhSection.render("EPYC", epyc, List.of(), WHEN, Optional.empty()).markdown();

        assertThat(markdown).contains("| Chiplets | 16 |").contains("| Threads pinned | yes |").doesNotContain("single L3");
    }

    @Test
    void chartsAreWellFormedSvg()
            throws Exception
    {
        for (Map.Entry<String, String> svg : render().svgs().entrySet()) {
            Document document = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(new ByteArrayInputStream(svg.getValue().getBytes(StandardCharsets.UTF_8)));
            assertThat(document.getDocumentElement().getTagName()).as(svg.getKey()).isEqualTo("svg");
            assertThat(document.getElementsByTagName("rect").getLength()).as(svg.getKey()).isGreaterThan(3);
        }
        String bars = render().svgs().get("this-machine-stream-triad.svg");
        assertThat(bars).contains("<title>wicp-local below-l3: 1.500</title>").contains("<title>wicp-local beyond: 0.800</title>");
    }

    @Test
    void svgEscapesText()
    {
        String svg = SvgCharts.groupedBars("a < b & \"c\"", "y", List.of("g"), List.of("s"), new double[][] {{1.0}});

        assertThat(svg).contains("a &lt; b &amp; &quot;c&quot;").doesNotContain("a < b");
    }

    @Test
    void aNewSectionGoesBesideTheExistingOnesAndASameNamedOneIsReplaced()
    {
        String first = ReportDocument.merge(Optional.empty(), "2-CPU VM", "## 2-CPU VM\n\nold numbers\n");
        assertThat(first).startsWith("# Performance\n").contains("old numbers");

        String both = ReportDocument.merge(Optional.of(first), "16-core device", "## 16-core device\n\ndevice numbers\n");
        assertThat(both).contains("old numbers").contains("device numbers");
        assertThat(both.indexOf("old numbers")).isLessThan(both.indexOf("device numbers"));

        String replaced = ReportDocument.merge(Optional.of(both), "2-CPU VM", "## 2-CPU VM\n\nnew numbers\n");
        assertThat(replaced).doesNotContain("old numbers").contains("new numbers").contains("device numbers");
        assertThat(replaced.indexOf("new numbers")).isLessThan(replaced.indexOf("device numbers"));
        assertThat(replaced.split("<!-- section: 2-cpu-vm -->", -1)).hasSize(2);
    }

    @Test
    void writeAddsASecondMachinesSectionAndItsChartsBesideTheFirst()
            throws Exception
    {
        Path results = resource("/jmh/small-result.json");
        Path out = temp.resolve("docs/performance.md");
        Path svgs = temp.resolve("docs/perf");
        List<JmhResult> rows = JmhResults.read(results);

        PerformanceReport.write(new ReportArguments(List.of(results), out, svgs, "2-CPU VM", Optional.empty(), Optional.empty()), MACHINE, rows, WHEN);
        PerformanceReport.write(new ReportArguments(List.of(results), out, svgs, "16-core device", Optional.empty(), Optional.of("quick")), MACHINE, rows, WHEN);

        String report = Files.readString(out);
        assertThat(report).contains("## 2-CPU VM").contains("## 16-core device").contains("](perf/16-core-device-stream-triad.svg)");
        assertThat(svgs.resolve("2-cpu-vm-stream-triad.svg")).exists();
        assertThat(svgs.resolve("16-core-device-core-to-core.svg")).exists();
    }

    @Test
    void badInputIsNamed()
            throws Exception
    {
        Path notRows = temp.resolve("object.json");
        Files.writeString(notRows, "{\"benchmark\": 1}");
        Path broken = temp.resolve("broken.json");
        Files.writeString(broken, "[{\"benchmark\": ");

        assertThatThrownBy(() -> JmhResults.read(notRows)).hasMessageContaining("object.json").hasMessageContaining("an array of benchmark rows");
        assertThatThrownBy(() -> JmhResults.read(broken)).hasMessageContaining("broken.json");
        assertThatThrownBy(() -> ReportArguments.parse(new String[] {"--section", "x"})).hasMessageContaining("--results FILE is required");
        assertThatThrownBy(() -> ReportArguments.parse(new String[] {"--colour", "red"})).hasMessageContaining("unknown option --colour");
        assertThatThrownBy(() -> ReportArguments.parse(new String[] {"--results", temp.resolve("none.json").toString()}))
                .hasMessageContaining("none.json: no such file");
    }

    @Test
    void numbersAndSizesAreFormattedForReading()
    {
        assertThat(Units.number(1234.5)).isEqualTo("1235");
        assertThat(Units.number(12.345)).isEqualTo("12.35");
        assertThat(Units.number(0.01234)).isEqualTo("0.0123");
        assertThat(Units.bytes(2L << 30)).isEqualTo("2 GiB");
        assertThat(Units.bytes(272L << 20)).isEqualTo("272 MiB");
        assertThat(Double.parseDouble(Units.number(2.5e7))).isCloseTo(2.5e7, within(1.0));
    }

    @Test
    void durationsAndCellValuesStayShort()
    {
        assertThat(Units.nanos(24.04)).isEqualTo("24.0 ns");
        assertThat(Units.nanos(1500)).isEqualTo("1.5 µs");
        assertThat(Units.nanos(18_891_777.7)).isEqualTo("18.9 ms");
        assertThat(SvgCharts.compact(24.4)).isEqualTo("24");
        assertThat(SvgCharts.compact(3.74)).isEqualTo("3.7");
        assertThat(SvgCharts.compact(1500)).isEqualTo("1.5k");
        assertThat(SvgCharts.compact(18_891_777.7)).isEqualTo("18.9M");
    }

    private static JmhSection render()
    {
        return JmhSection.render("This machine", MACHINE, JmhResults.read(resource("/jmh/small-result.json")), WHEN, Optional.empty());
    }

    private static Path resource(String name)
    {
        try {
            return Path.of(PerformanceReportTest.class.getResource(name).toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
