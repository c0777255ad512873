package io.chiplet.trino.cluster;

import io.chiplet.trino.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerReportsTest
{
    private static final Instant NOON = Instant.parse("2026-11-26T12:00:00Z");
    private static final List<WorkerReport> TWO = List.of(new WorkerReport("w2", "host-a", 2, 2), new WorkerReport("w1", "host-a", 2, 2));

    @Test
    void reportsSurviveARestartThroughTheFile(@TempDir Path temp)
    {
        Path file = temp.resolve("state/chiplet").resolve(WorkerReportsFile.FILE_NAME);
        WorkerReports first = new WorkerReports();
        first.keepIn(file);
        first.update(TWO, NOON);
        assertThat(file).isRegularFile();

        WorkerReports restarted = new WorkerReports();
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            restarted.keepIn(file);
            assertThat(log.warnings()).isEmpty();
        }
        assertThat(restarted.current().reports()).extracting(WorkerReport::node).containsExactly("w1", "w2");
        assertThat(restarted.current().saved()).isTrue();
        assertThat(restarted.current().taken()).isEqualTo(NOON);
        assertThat(restarted.current().describe()).isEqualTo("2 workers as saved at 2026-11-26T12:00:00Z before this start");

        // The workers' own reports replace the saved ones.
        restarted.update(TWO.subList(0, 1), NOON.plusSeconds(60));
        assertThat(restarted.current().saved()).isFalse();
        assertThat(restarted.current().reports()).hasSize(1);
    }

    @Test
    void aMissingFileIsAFirstStartWithoutWarning(@TempDir Path temp)
    {
        WorkerReports reports = new WorkerReports();
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            reports.keepIn(temp.resolve("no-such-dir").resolve(WorkerReportsFile.FILE_NAME));
            assertThat(log.warnings()).isEmpty();
        }
        assertThat(reports.current().isEmpty()).isTrue();
        // The folder is made when the first reports are saved.
        reports.update(TWO, NOON);
        assertThat(temp.resolve("no-such-dir").resolve(WorkerReportsFile.FILE_NAME)).isRegularFile();
    }

    @Test
    void aBadFileCostsOneWarningAndStartsEmpty(@TempDir Path temp)
            throws Exception
    {
        Path file = temp.resolve(WorkerReportsFile.FILE_NAME);
        Files.writeString(file, "saved=2026-11-26T12:00:00Z\nworker.0.node=w1\nworker.0.host=host-a\nworker.0.chiplets=two\nworker.0.cores=2\n");
        WorkerReports reports = new WorkerReports();
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            reports.keepIn(file);
            assertThat(log.warnings()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("Chiplet worker reports: " + file + " is not usable, starting without saved reports: ")
                    .contains("worker.0.chiplets=two is not usable: expected a whole number"));
        }
        assertThat(reports.current().isEmpty()).isTrue();

        Files.writeString(file, "not a date\n");
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            new WorkerReports().keepIn(file);
            assertThat(log.warnings()).singleElement().satisfies(line -> assertThat(line).contains("saved=null is not usable"));
        }
    }

    @Test
    void anUnwritableFolderWarnsOnceAndKeepsTheReportsInMemory(@TempDir Path temp)
            throws Exception
    {
        Path blocker = temp.resolve("a-file");
        Files.writeString(blocker, "");
        WorkerReports reports = new WorkerReports();
        reports.keepIn(blocker.resolve(WorkerReportsFile.FILE_NAME));
        try (LogCapture log = LogCapture.of("io.chiplet.trino")) {
            reports.update(TWO, NOON);
            reports.update(TWO.subList(0, 1), NOON.plusSeconds(5));
            assertThat(log.warnings()).singleElement().satisfies(line -> assertThat(line).startsWith("Chiplet worker reports: cannot save them to " + blocker));
        }
        assertThat(reports.current().reports()).hasSize(1);
    }
}
