package io.chiplet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chiplet.it.SparkSubmit.Cell;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin's facts land in the event log of a real application (Spark 4's rolling, compressed log and Spark 3.5's
 * single file), and a report directory that cannot be written is warned about at the driver's start, once.
 */
class SparkEventLogTest
{
    private static final String EVENTS = "io.chiplet.spark.events.";

    static List<Cell> cells()
    {
        return Cell.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void topologyPlacementSettingsAndMeasurementAreInTheEventLog(Cell cell)
            throws Exception
    {
        EventLogRuns run = EventLogRuns.of(cell);
        List<JsonNode> events = run.events();
        List<String> names = events.stream().map(event -> event.path("Event").asText()).toList();
        System.err.printf("chiplet event log IT (%s): %s, %d events, ours: %s%n", cell, run.applicationLog().getFileName(), events.size(),
                names.stream().filter(name -> name.startsWith(EVENTS)).collect(Collectors.groupingBy(name -> name.substring(EVENTS.length()), Collectors.counting())));

        List<JsonNode> topology = ours(events, "ChipletTopologyEvent");
        assertThat(topology).extracting(event -> event.get("executorId").asText()).containsExactlyInAnyOrder("0", "1");
        // Each executor has its share of the two-chiplet snapshot: one chiplet of one core; its host's picture (both
        // chiplets) and its own CPU go with it.
        assertThat(topology).allSatisfy(event -> {
            assertThat(event.get("mode").asText()).isEqualTo("task");
            assertThat(event.get("chiplets").asInt()).isEqualTo(1);
            JsonNode machine = new ObjectMapper().readTree(event.get("machine").asText());
            assertThat(machine.get("kind").asText()).isEqualTo("chiplet.machine-picture/1");
            assertThat(machine.get("chiplets")).extracting(chiplet -> chiplet.get("cores").toString()).containsExactly("[\"0\"]", "[\"1\"]");
            assertThat(event.get("cpus").asText()).isIn("0", "1");
        });
        assertThat(topology).extracting(event -> event.get("cpus").asText()).doesNotHaveDuplicates();
        // Where tasks ran: per stage, chiplet and arm, and the last few one by one; every task of the job counted once.
        List<JsonNode> tasks = ours(events, "ChipletTasksEvent");
        assertThat(tasks).isNotEmpty();
        long counted = tasks.stream().flatMap(event -> java.util.stream.StreamSupport.stream(event.get("stages").spliterator(), false)).mapToLong(row -> row.get("tasks").asLong()).sum();
        long ended = names.stream().filter(name -> name.equals("SparkListenerTaskEnd")).count();
        assertThat(counted).as("tasks the executors counted, against Spark's task ends").isEqualTo(ended);
        assertThat(tasks).allSatisfy(event -> assertThat(event.get("recent").size()).isBetween(0, 20));
        assertThat(tasks.stream().flatMap(event -> java.util.stream.StreamSupport.stream(event.get("stages").spliterator(), false)).map(row -> row.get("arm").asText()))
                .as("measured per task: both arms").contains("placed", "control");
        List<JsonNode> placement = ours(events, "ChipletPlacementEvent");
        assertThat(placement).isNotEmpty();
        assertThat(placement).allSatisfy(event -> assertThat(Set.of("0", "1")).containsAll(names(event.get("tasksByChiplet"))));
        assertThat(ours(events, "ChipletSettingsEvent")).isNotEmpty()
                .last().satisfies(event -> assertThat(event.get("settings").toString()).contains("spark.sql.shuffle.partitions"));

        List<JsonNode> measures = ours(events, "ChipletMeasureEvent");
        JsonNode last = measures.getLast();
        assertThat(last.get("last").asBoolean()).isTrue();
        assertThat(measures).filteredOn(event -> event.get("last").asBoolean()).hasSize(1);
        JsonNode report = new ObjectMapper().readTree(last.get("reportJson").asText());
        assertThat(report.get("kind").asText()).isEqualTo("chiplet-measure-report/1");
        assertThat(report.get("estimate").get("placedUnits").asInt() + report.get("estimate").get("controlUnits").asInt()).isPositive();
        assertThat(last.get("jobCpuNanos").asLong()).isPositive();
        // Ours come after the application started, and the last measurement after its end at the latest.
        assertThat(names.indexOf(EVENTS + "ChipletTopologyEvent")).isGreaterThan(names.indexOf("SparkListenerApplicationStart"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void anUnwritableReportDirectoryIsWarnedAboutAtTheStartOnce(Cell cell)
            throws Exception
    {
        EventLogRuns run = EventLogRuns.of(cell);
        String log = run.result().driverLog() + run.result().stdout();
        String warning = "Chiplet plugin cannot write its measurement report (spark.chiplet.measure.reportDir): " + run.unwritableReportDir() + " cannot be created";
        assertThat(log).contains(warning);
        assertThat(log.split(java.util.regex.Pattern.quote(warning), -1)).hasSize(2);
        // At the start: before the first executor reported to the driver.
        assertThat(log.indexOf(warning)).isLessThan(log.indexOf("ChipletDriverPlugin: Executor "));
    }

    private static List<JsonNode> ours(List<JsonNode> events, String name)
    {
        return events.stream().filter(event -> event.path("Event").asText().equals(EVENTS + name)).toList();
    }

    private static Set<String> names(JsonNode object)
    {
        Set<String> names = new java.util.TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
