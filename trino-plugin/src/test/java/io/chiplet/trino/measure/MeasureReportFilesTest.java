package io.chiplet.trino.measure;

import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.Measurement;
import io.chiplet.measure.Noun;
import io.chiplet.measure.PluginCost;
import io.chiplet.trino.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class MeasureReportFilesTest
{
    private static final String LOGGER = "io.chiplet.trino.measure.MeasureReportFilesTest";

    private static MeasureReport report()
    {
        Measurement measurement = new Measurement(MeasureKeys.parse(Map.of()).plan(1));
        return MeasureReport.of(measurement, "Trino catalog test", "switchback windows", Noun.regular("window"), Noun.regular("query shape"),
                "2026-01-01T00:00:00Z", PluginCost.none(), List.of());
    }

    @Test
    void writesBothFilesNamedForTheCatalogAndLeavesNoTemporaryFile(@TempDir Path temp)
            throws IOException
    {
        Path directory = temp.resolve("reports");
        MeasureReportFiles files = new MeasureReportFiles(directory, "my catalog/1", LoggerFactory.getLogger(LOGGER));
        MeasureReport report = report();
        assertThat(files.write(() -> report)).isTrue();
        assertThat(Files.readString(directory.resolve("chiplet-measure-trino-my_catalog_1.json"))).isEqualTo(report.json());
        assertThat(Files.readString(directory.resolve("chiplet-measure-trino-my_catalog_1.html"))).isEqualTo(report.html());
        try (Stream<Path> listed = Files.list(directory)) {
            assertThat(listed.map(path -> path.getFileName().toString())).noneMatch(name -> name.endsWith(".tmp")).hasSize(2);
        }
    }

    @Test
    void aDirectoryThatCannotBeWrittenWarnsOnceAndWritesNothing(@TempDir Path temp)
            throws IOException
    {
        Path notADirectory = Files.writeString(temp.resolve("file"), "x");
        try (LogCapture log = LogCapture.of(LOGGER)) {
            MeasureReportFiles files = new MeasureReportFiles(notADirectory, "chiplet", LoggerFactory.getLogger(LOGGER));
            assertThat(files.write(MeasureReportFilesTest::report)).isFalse();
            assertThat(files.write(() -> {
                throw new IllegalStateException("no report");
            })).isFalse();
            assertThat(log.warnings()).hasSize(1).first().asString().contains(MeasureKeys.REPORT_DIR + "=" + notADirectory);
        }
    }
}
