package io.chiplet.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's first screen (what comes before its first section) says which Spark releases need which JDK, as the
 * support matrix in docs/spark.md has it, whose cells {@code SparkReleaseMatrixTest} runs: a new user read "Spark 3.5 to
 * 4.3 on JDK 17, 21 or 25" there, ran pyspark 3.5 on the JDK 25 that {@code bin/chiplet} wants, and it did not start.
 */
class ReadmeFirstScreenTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+\\.\\d+)\\.\\d+ \\| [^|]+ \\| JDK (\\d+) \\|");

    @Test
    void theFirstScreenPairsSparkReleasesWithTheJdksTheMatrixRuns()
            throws IOException
    {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        String firstScreen = String.join(" ", readme.subList(0, firstSection(readme))).replaceAll("\\s+", " ");

        Map<String, Set<Integer>> jdks = new TreeMap<>();
        List<String> spark = Files.readAllLines(ROOT.resolve("docs/spark.md"));
        for (String line : spark.subList(spark.indexOf("<!-- spark-support-matrix:begin -->"), spark.indexOf("<!-- spark-support-matrix:end -->"))) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                jdks.computeIfAbsent(row.group(1), release -> new TreeSet<>()).add(Integer.parseInt(row.group(2)));
            }
        }
        assertThat(jdks).as("the support matrix of docs/spark.md").isNotEmpty();
        String withoutJdk25 = jdks.entrySet().stream().filter(entry -> !entry.getValue().contains(25)).map(Map.Entry::getKey).collect(Collectors.joining(" and "));
        String withJdk25 = jdks.entrySet().stream().filter(entry -> entry.getValue().contains(25)).map(Map.Entry::getKey).collect(Collectors.joining(" and "));
        assertThat(withoutJdk25).as("releases the matrix runs on no JDK 25").isNotEmpty();
        assertThat(firstScreen)
                .contains("Spark " + withoutJdk25 + " need JDK 17 or 21")
                .contains("Spark " + withJdk25 + " run on JDK 17 to 25")
                // what misled: one list of JDKs for every release
                .doesNotContainPattern("Spark 3\\.5 to 4\\.\\d on JDK 17, 21 or 25");
        // Nothing further down says otherwise either.
        assertThat(String.join(" ", readme)).doesNotContainPattern("on JDK 17, 21 or 25");
    }

    private static int firstSection(List<String> lines)
    {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("## ")) {
                return i;
            }
        }
        return lines.size();
    }
}
