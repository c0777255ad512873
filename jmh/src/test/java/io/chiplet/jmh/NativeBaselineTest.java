package io.chiplet.jmh;

import io.chiplet.jmh.report.JmhResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.assertj.core.groups.Tuple.tuple;

class NativeBaselineTest
{
    @Test
    void eachCallIsOneRowWithTheMedianOfTheRunsMeans()
    {
        List<JmhResult> rows = NativeBaseline.rows(List.of(
                "pin_restore mean 3100.0 median 2900.0",
                "getcpu mean 40.5 median 39.0",
                "pin_restore mean 2800.0 median 2700.0",
                "getcpu mean 41.5 median 40.0",
                "pin_restore mean 9000.0 median 3000.0",
                "getcpu mean 50.0 median 41.0"), 1000);

        assertThat(rows).extracting(JmhResult::className, JmhResult::method, JmhResult::score, JmhResult::unit).containsExactly(
                tuple("PinBaselineC", "pin_restore", 3100.0, "ns/op"),
                tuple("PinBaselineC", "getcpu", 41.5, "ns/op"));
        assertThat(rows.getFirst().params()).containsEntry("runs", "3").containsEntry("iterations", "1000");
        assertThat(rows.getFirst().scoreError()).isNaN();
    }

    @Test
    void eachFfmFigureIsDividedByItsCCounterpartOfTheSameRun()
    {
        List<JmhResult> rows = List.of(
                pinRow("cPinRestore", 2000.0, 20.0),
                pinRow("cSchedGetcpu", 4.0, 0.1),
                pinRow("ffmBindRestore", 2100.0, 100.0),
                pinRow("ffmSchedGetcpu", 5.0, 0.4),
                // no C counterpart: no ratio
                pinRow("ffmGetcpu", 50.0, 1.0));

        List<JmhResult> ratios = NativeBaseline.ratios(rows);

        assertThat(ratios).extracting(JmhResult::className, JmhResult::method, JmhResult::score, JmhResult::scoreError, JmhResult::unit).containsExactly(
                tuple("FfmOverC", "bindRestore", 1.05, 0.05, "x"),
                tuple("FfmOverC", "schedGetcpu", 1.25, 0.1, "x"));
        assertThat(NativeBaseline.ratios(List.of(pinRow("ffmBindRestore", 2100.0, 100.0)))).isEmpty();
    }

    private static JmhResult pinRow(String method, double score, double error)
    {
        return new JmhResult("io.chiplet.jmh.PinBenchmark." + method, "avgt", 1, java.util.Map.of(), score, error, "ns/op", java.util.Map.of());
    }

    @Test
    void outputWithoutMeasurementsIsAnError()
    {
        assertThatThrownBy(() -> NativeBaseline.rows(List.of("sched_setaffinity: Invalid argument"), 10))
                .hasMessageContaining("printed no measurement")
                .hasMessageContaining("Invalid argument");
    }

    @Test
    void findsTheFirstCompilerOnThePath(@TempDir Path temp)
            throws IOException
    {
        Path empty = Files.createDirectory(temp.resolve("empty"));
        Path tools = Files.createDirectory(temp.resolve("tools"));
        Path gcc = Files.createFile(tools.resolve("gcc"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.createFile(tools.resolve("cc"));   // not executable: skipped

        assertThat(NativeBaseline.compiler(empty + "::" + tools)).contains(gcc);
        assertThat(NativeBaseline.compiler(empty.toString())).isEmpty();
    }

    @Test
    void compilesAndRunsTheBaselineWhereThereIsACompiler(@TempDir Path temp)
    {
        Optional<Path> compiler = NativeBaseline.compiler(System.getenv().getOrDefault("PATH", ""));
        assumeThat(compiler).as("a C compiler on PATH").isPresent();

        List<JmhResult> rows = NativeBaseline.run(compiler.orElseThrow(), Path.of("src/main/c/pin_baseline.c").toAbsolutePath(), temp, 10_000, 1);

        assertThat(rows).extracting(JmhResult::method).containsExactly("pin_restore", "getcpu", "sched_getcpu");
        assertThat(rows).allSatisfy(row -> assertThat(row.score()).isPositive());
    }
}
