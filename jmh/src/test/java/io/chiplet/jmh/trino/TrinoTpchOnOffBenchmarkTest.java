package io.chiplet.jmh.trino;

import io.chiplet.measure.OnOffComparison;
import io.chiplet.jmh.tpch.TpchBenchArguments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class TrinoTpchOnOffBenchmarkTest
{
    @Test
    void sectionNamesTheClusterTheSharedSessionPropertiesAndWhatThePluginPlaced()
    {
        TpchBenchArguments arguments = TpchBenchArguments.parse(new String[] {"--trino-tpch-sf", "1", "--rounds", "3", "--queries", "1,6"}, "--trino-tpch-sf");
        TrinoTpchOnOffBenchmark.OnSide on = new TrinoTpchOnOffBenchmark.OnSide(
                Map.of("task_concurrency", "2", "min_hash_partition_count", "1", "max_hash_partition_count", "100"), "auto", "sysfs:/", 4);
        OnOffComparison comparison = new OnOffComparison(List.of(1, 6), List.of(Map.of(1, 2.0, 6, 1.0)), List.of(Map.of(1, 1.0, 6, 2.0)));

        String section = TrinoTpchOnOffBenchmark.report(arguments, on, Instant.parse("2026-11-23T12:00:00Z"), Duration.ofSeconds(60), "25", OptionalDouble.empty(), 2)
                .render(comparison);

        assertThat(section)
                .startsWith("## Trino TPC-H SF 1: plugin on vs off\n")
                .contains("`bin/chiplet bench --trino-tpch-sf 1 --rounds 3`, 2 queries, 1 interleaved round (after an untimed warm-up of both servers, "
                        + "each query run on both back to back, alternating which goes first)")
                .contains("Each side is a Trino server in a JVM of its own that lives through its rounds")
                .contains("a coordinator and one worker, the coordinator running no tasks")
                .contains("schema `sf1`")
                .contains("(`max_hash_partition_count=100`, `min_hash_partition_count=1`, `task_concurrency=2`)")
                .contains("policy `auto` on `sysfs:/`, placed 4 query threads")
                .contains("Skew feedback is off (`chiplet.skew-feedback.window-queries=0`)")
                .contains("| q1 | 2.000 | 1.000 | 2.000 |");
        assertThat(TrinoTpchOnOffBenchmark.sectionName(arguments)).isEqualTo("Trino TPC-H SF 1: plugin on vs off");
    }

    @Test
    void withForksTheSectionSaysHowManyPairsOfServersRanHowManyRounds()
    {
        TpchBenchArguments arguments = TpchBenchArguments.parse(new String[] {"--trino-tpch-sf", "1", "--rounds", "1", "--forks", "3"}, "--trino-tpch-sf");
        TrinoTpchOnOffBenchmark.OnSide on = new TrinoTpchOnOffBenchmark.OnSide(Map.of("task_concurrency", "2"), "auto", "sysfs:/", 4);
        OnOffComparison comparison = new OnOffComparison(List.of(1), List.of(Map.of(1, 2.0), Map.of(1, 2.0), Map.of(1, 2.0)),
                List.of(Map.of(1, 1.0), Map.of(1, 1.0), Map.of(1, 1.0)));

        String section = TrinoTpchOnOffBenchmark.report(arguments, on, Instant.parse("2026-11-23T12:00:00Z"), Duration.ofSeconds(60), "25", OptionalDouble.empty(), 2)
                .render(comparison);

        assertThat(section).contains("`bin/chiplet bench --trino-tpch-sf 1 --rounds 1 --forks 3`, 1 query, 3 interleaved rounds (3 pairs of servers started "
                + "afresh, 1 round each after an untimed warm-up, each query run on both back to back, alternating which goes first)");
    }

    @Test
    void readsTheTpchConnectorsSchemaOfTheScaleFactor()
    {
        assertThat(TrinoTpchOnOffBenchmark.schema(TpchBenchArguments.parse(new String[] {"--trino-tpch-sf", "1"}, "--trino-tpch-sf"))).isEqualTo("sf1");
        assertThat(TrinoTpchOnOffBenchmark.schema(TpchBenchArguments.parse(new String[] {"--scale-factor", "0.01"}, "--trino-tpch-sf"))).isEqualTo("sf0.01");
    }

    /**
     * The benchmark as {@code bin/chiplet bench --trino-tpch-sf} starts it, in its own JVM on trino-plugin's class path
     * and JVM options, which starts its two servers twice (two forks): two queries at SF 0.01, one round, no report.
     */
    @Test
    void runsOnTheTrinoClassPathAndComparesBothSides(@TempDir Path root)
            throws IOException, InterruptedException
    {
        Path launch = Path.of(System.getProperty("chiplet.trino.bench.dir", "../trino-plugin/target/bench"));
        Path classes = Path.of(System.getProperty("chiplet.jmh.classes", "target/classes"));
        assertThat(launch.resolve("classpath")).as("written by the trino-plugin build (./mvnw -pl jmh -am ...)").isRegularFile();

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(Files.readString(launch.resolve("jvm-options")).strip().split("\\s+")));
        command.add("-cp");
        command.add(Files.readString(launch.resolve("classpath")).strip() + File.pathSeparator + classes);
        command.add(TrinoTpchOnOffBenchmark.class.getName());
        command.addAll(List.of("--trino-tpch-sf", "0.01", "--rounds", "1", "--forks", "2", "--queries", "1,6", "--root", root.toString(), "--no-report"));
        Path log = root.resolve("benchmark.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = process.waitFor(5, TimeUnit.MINUTES);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        String tail = output.substring(Math.max(0, output.length() - 6000));

        assertThat(exited).as("finished within 5 minutes:%n%s", tail).isTrue();
        assertThat(process.exitValue()).as("exit status:%n%s", tail).isZero();
        assertThat(output)
                .contains("fork 1/2: starting the Trino servers, plugin on and off ...")
                .contains("fork 2/2: starting the Trino servers, plugin on and off ...")
                .contains("warm-up (untimed), every query on both servers ...")
                .contains("round 1/1, each query plugin on and off ...")
                .containsPattern("placement: policy auto, \\d+ query threads, topology sysfs:/")
                .contains("## Trino TPC-H SF 0.01: plugin on vs off")
                .containsPattern("\\| q1 \\| \\d+\\.\\d{3} \\| \\d+\\.\\d{3} \\| \\d+\\.\\d{3} \\|")
                .containsPattern("\\| q6 \\| \\d+\\.\\d{3} \\| \\d+\\.\\d{3} \\| \\d+\\.\\d{3} \\|")
                .contains("**Paired geometric mean on/off: ")
                // The plugins' kind of report: two forks of one round are two rounds of pairs.
                .containsPattern("Chiplet placement measured on/off for Trino TPC-H SF 0.01: plugin on vs off: speed-up \\d+\\.\\d{3}x \\(95% CI "
                        + "\\d+\\.\\d{3}-\\d+\\.\\d{3}, (placed faster|placed slower|noise explains it)[^)]*\\) from 4 placed and 4 control query runs in 2 query texts")
                .doesNotContain("chiplet bench: wrote");
        assertThat(root.resolve("docs")).doesNotExist();
        assertThat(root.resolve("jmh/target/chiplet-bench/chiplet-measure-Trino-TPC-H-SF-0.01-plugin-on-vs-off.json")).content()
                .contains("\"kind\" : \"chiplet-measure-report/1\"", "\"unit\" : \"query run\"");
    }
}
