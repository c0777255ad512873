package io.chiplet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chiplet.cli.ChipletCli;
import io.chiplet.it.SparkSubmit.Cell;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code chiplet report} over the event logs of the real applications {@link EventLogRuns} ran (Spark 4's rolling
 * compressed log and Spark 3.5's single file, one application name): one page pooling both runs, checked in a real
 * headless browser, whose screenshot is kept under {@code target/screenshots/} (and, with
 * {@code -Dchiplet.it.updateDocsImages=true}, copied to {@code docs/images/}).
 */
class EventLogReportTest
{
    @Test
    void thePageIsBuiltFromTheLogsOfEveryReleasePoolingTheRuns()
            throws Exception
    {
        List<Path> logs = new ArrayList<>();
        for (Cell cell : Cell.configured()) {
            logs.add(EventLogRuns.of(cell).applicationLog());
        }
        Path out = Files.createDirectories(Path.of("target", "screenshots").toAbsolutePath());
        List<String> arguments = new ArrayList<>(List.of("report", "--out", out.toString()));
        logs.forEach(log -> arguments.add(log.toString()));

        assertThat(ChipletCli.commandLine().execute(arguments.toArray(String[]::new))).isZero();

        JsonNode report = new ObjectMapper().readTree(out.resolve("chiplet-report.json").toFile());
        JsonNode application = report.get("applications").get(0);
        assertThat(report.get("applications")).hasSize(1);
        assertThat(application.get("name").asText()).isEqualTo("chiplet-eventlog-job");
        assertThat(application.get("runs")).hasSize(logs.size());
        application.get("runs").forEach(run -> {
            assertThat(run.get("plugin").asBoolean()).isTrue();
            assertThat(run.get("executors")).hasSize(2);
            assertThat(run.get("tasks").asLong()).isPositive();
            assertThat(run.get("executors")).extracting(executor -> executor.get("cpus").asText()).containsExactlyInAnyOrder("0", "1");
            assertThat(run.get("taskPlaces").get("tasksEnded").asLong()).isPositive();
            assertThat(run.get("taskPlaces").get("recent").size()).isBetween(1, 50);
        });
        if (logs.size() > 1) {
            assertThat(application.get("pooled").get("runs").asInt()).isEqualTo(logs.size());
        }

        Path png = out.resolve("chiplet-report.png");
        String dom = HeadlessBrowser.screenshot(out.resolve("chiplet-report.html").toUri().toString(), png, 1100, 1800);
        assertThat(dom).contains("chiplet-eventlog-job").contains("Tasks per chiplet").contains("<svg").contains("data-executor=\"0\"").contains("Tasks per stage")
                .contains("Last tasks");
        if (Boolean.getBoolean("chiplet.it.updateDocsImages")) {
            Files.copy(png, Files.createDirectories(Path.of("..", "docs", "images")).resolve("chiplet-report.png"), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
