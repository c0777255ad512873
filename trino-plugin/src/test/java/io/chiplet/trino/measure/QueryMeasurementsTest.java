package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmEstimate;
import io.chiplet.measure.MeasureReport;
import io.chiplet.trino.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class QueryMeasurementsTest
{
    private static final long WINDOW = 1000;
    private static final long T0 = 1_000_000L * WINDOW;
    private static final String LOGGER = "io.chiplet.trino.measure.QueryMeasurementsTest";

    private final MutableClock clock = new MutableClock(T0 + 100);
    private final AtomicInteger publishes = new AtomicInteger();
    private final QueryMeasurements measurements = new QueryMeasurements(clock, LoggerFactory.getLogger(LOGGER));

    private void start(Map<String, String> settings)
    {
        Map<String, String> all = new HashMap<>(Map.of(MeasureKeys.WINDOW, WINDOW + "ms", MeasureKeys.CONTROL_SHARE, "0.5", MeasureKeys.SEED, "11"));
        all.putAll(settings);
        assertThat(measurements.start("chiplet", MeasureKeys.parse(all), 99, publishes::incrementAndGet)).isTrue();
    }

    /** Every worker follows the coordinator's schedule as it is now. */
    private void confirmAll()
    {
        WindowSchedule schedule = measurements.schedule().orElseThrow();
        measurements.confirmed(schedule.epoch(), schedule.version(), true, Map.of("worker-1", 1_000_000L));
    }

    private static CompletedQuery query(String shape, long start, long end, double cpuSeconds)
    {
        return new CompletedQuery("q", shape, "SELECT " + shape, start, end, Math.round(cpuSeconds * 1e9), 1000, 10, false);
    }

    /**
     * Runs {@code windows} windows of two queries of each of two shapes inside the window and one across its end, the
     * placed ones taking {@code ratio} times the CPU (5 % noise); the publisher confirms each change at once.
     */
    private void run(long fromWindow, int windows, double ratio, long seed)
    {
        Random random = new Random(seed);
        for (long window = fromWindow; window < fromWindow + windows; window++) {
            long base = window * WINDOW;
            for (int i = 0; i < 2; i++) {
                for (String shape : List.of("a", "b")) {
                    long start = base + 150 + i * 350;
                    clock.set(start + 300);
                    Arm arm = measurements.schedule().orElseThrow().armOfWindow(window);
                    double cpu = (shape.equals("a") ? 0.2 : 0.5) * (arm == Arm.PLACED ? ratio : 1) * Math.exp(0.05 * random.nextGaussian());
                    measurements.record(query(shape, start, start + 300, cpu));
                    confirmAll();
                }
            }
            clock.set(base + WINDOW + 100);
            boolean placed = measurements.schedule().orElseThrow().armOfWindow(window) == Arm.PLACED;
            measurements.record(query("a", base + 900, base + WINDOW + 100, 0.2 * (placed ? ratio : 1) * Math.exp(0.05 * random.nextGaussian())));
            confirmAll();
        }
    }

    @Test
    void nothingIsMeasuredBeforeTheScheduleStartsAndQueriesAcrossWindowsOfBothArmsAreLeftOut()
    {
        start(Map.of());
        WindowSchedule schedule = measurements.schedule().orElseThrow();
        long first = schedule.entries().getFirst().fromWindow();
        assertThat(first).as("two windows after the one it was decided in").isEqualTo(T0 / WINDOW + QueryMeasurements.LEAD_WINDOWS);
        assertThat(publishes).hasValue(0);
        measurements.record(query("a", T0 + 200, T0 + 400, 0.1));
        confirmAll();
        run(first, 40, 1.0, 1);
        schedule = measurements.schedule().orElseThrow();

        List<QueryMeasurements.ShapeRow> rows = measurements.rows();
        QueryMeasurements.ShapeRow overall = rows.getFirst();
        assertThat(overall.shape()).isEqualTo("overall");
        long spanning = countSpanning(schedule, first, 40);
        assertThat(spanning).as("windows followed by one of the other arm or share").isPositive();
        // Every query is recorded in its window's observation or left out (spanning, unscheduled); the unit compared is
        // the window of one shape: two shapes a window, the last window still open.
        assertThat(overall.leftOut()).isEqualTo(1 + spanning);
        long observations = overall.placed() + overall.control() + measurements.report().estimate().unitsLeftOut();
        assertThat(observations).isBetween(2L * 39, 2L * 40);
        String notes = String.join("\n", measurements.report().notes());
        assertThat(notes).contains((40 * 5 - spanning) + " queries recorded in " + observations + " window observations")
                .contains(spanning + " queries left out: ran in windows of both arms")
                .contains("1 queries left out: ran before the schedule's first window");
        assertThat(rows).extracting(QueryMeasurements.ShapeRow::shape).contains("a, 1 in 2", "b, 1 in 2");
    }

    private static long countSpanning(WindowSchedule schedule, long first, int windows)
    {
        long count = 0;
        for (long window = first; window < first + windows; window++) {
            if (!schedule.drawnArmOfWindow(window).equals(schedule.drawnArmOfWindow(window + 1))) {
                count++;
            }
        }
        return count;
    }

    @Test
    void recoversAnInjectedGainAndSpendsLessControlOnceDecisive()
    {
        start(Map.of());
        // One seeded run: its interval misses 0.8 in about 5 % of seeds (WindowCoverageTest checks the rate).
        run(measurements.schedule().orElseThrow().entries().getFirst().fromWindow(), 60, 0.8, 12);

        ArmEstimate estimate = measurements.report().estimate();
        assertThat(estimate.enough()).isTrue();
        assertThat(estimate.timeRatio().orElseThrow().low()).isLessThanOrEqualTo(0.8);
        assertThat(estimate.timeRatio().orElseThrow().high()).isGreaterThanOrEqualTo(0.8);
        assertThat(measurements.report().verdict()).isEqualTo("placed faster");
        WindowSchedule schedule = measurements.schedule().orElseThrow();
        assertThat(schedule.latest().controlShare()).as("the residual share once decisive").isEqualTo(0.125);
        assertThat(schedule.latest().placing()).isTrue();
        assertThat(publishes.get()).as("each change published at once").isGreaterThanOrEqualTo(1);
    }

    @Test
    void theGuardStopsPlacementOnceMeasurablySlowerSaysSoOnceAndKeepsMeasuring()
    {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            start(Map.of());
            long first = measurements.schedule().orElseThrow().entries().getFirst().fromWindow();
            run(first, 80, 1.25, 3);

            WindowSchedule schedule = measurements.schedule().orElseThrow();
            assertThat(schedule.latest().placing()).isFalse();
            long stopFrom = schedule.entries().getLast().fromWindow();
            assertThat(java.util.stream.LongStream.range(stopFrom, stopFrom + 50).mapToObj(schedule::armOfWindow)).containsOnly(Arm.CONTROL);
            MeasureReport report = measurements.report();
            assertThat(report.guard().placing()).isFalse();
            assertThat(report.estimate().timeRatio().orElseThrow().low()).isLessThanOrEqualTo(1.25);
            assertThat(report.estimate().timeRatio().orElseThrow().high()).isGreaterThanOrEqualTo(1.25);
            assertThat(report.unitsAfterStop()).as("queries after the stop are counted, not compared").isPositive();
            assertThat(log.warnings().stream().filter(line -> line.startsWith("Chiplet placement stopped by the guard"))).singleElement().asString()
                    .contains("chiplet.guard=auto").contains("speed-up 0.").contains("placed slower");
            assertThat(measurements.rows().getFirst().placing()).isFalse();
        }
    }

    @Test
    void guardAlwaysKeepsPlacingWhateverTheEstimate()
    {
        start(Map.of(MeasureKeys.GUARD, "always"));
        run(measurements.schedule().orElseThrow().entries().getFirst().fromWindow(), 80, 1.25, 4);
        assertThat(measurements.schedule().orElseThrow().latest().placing()).isTrue();
        assertThat(measurements.report().verdict()).isEqualTo("placed slower");
    }

    @Test
    void oneLinePerShapeWithEnoughEvidenceAtMostOnceAMinute()
    {
        try (LogCapture log = LogCapture.of(LOGGER)) {
            start(Map.of(MeasureKeys.GUARD, "always"));
            // A seed whose interval stays wider than 2 % until each shape has 20 windows of each arm at the first share (with the
            // interval over windows, seed 5 settles the question at 19 control windows, and the share falls before any shape has a line).
            run(measurements.schedule().orElseThrow().entries().getFirst().fromWindow(), 150, 1.0, 6);
            List<String> lines = log.warnings().stream().filter(line -> line.startsWith("Chiplet placement measured in place for query shape")).toList();
            // 150 s of windows: each of the two shapes at most 3 times (at 0, 60 and 120 s after its first).
            assertThat(lines.stream().filter(line -> line.contains("shape a (SELECT a)")).count()).isBetween(2L, 3L);
            assertThat(lines.stream().filter(line -> line.contains("shape b (SELECT b)")).count()).isBetween(2L, 3L);
            assertThat(lines.getFirst()).containsPattern("speed-up \\d\\.\\d{3}x \\(95% CI \\d\\.\\d{3}-\\d\\.\\d{3}, [a-z ]+; [^)]+\\) from \\d+ placed and \\d+ control windows")
                    .contains("(drawn 1 in ").contains("plugin CPU").contains("guard always: placing")
                    .containsPattern("(no difference measurable; an effect beyond \u00b1\\d+\\.\\d% would have shown|smallest detectable effect \u00b1\\d+\\.\\d%)");
        }
    }

    @Test
    void windowsNotEveryWorkerConfirmedInTimeAreLeftOut()
    {
        start(Map.of());
        WindowSchedule schedule = measurements.schedule().orElseThrow();
        long first = schedule.entries().getFirst().fromWindow();
        // Not confirmed: the first window's queries cannot be trusted to have run in its arm.
        clock.set(first * WINDOW + 500);
        measurements.record(query("a", first * WINDOW + 100, first * WINDOW + 400, 0.2));
        assertThat(measurements.report().notes()).contains("1 queries left out: ran in windows some worker may not have followed yet");
        // Confirmed late, in window first + 3: queries up to it stay out, later ones count.
        clock.set((first + 3) * WINDOW + 10);
        measurements.confirmed(schedule.epoch(), schedule.version(), true, Map.of());
        measurements.record(query("a", (first + 2) * WINDOW + 100, (first + 2) * WINDOW + 400, 0.2));
        measurements.record(query("a", (first + 5) * WINDOW + 100, (first + 5) * WINDOW + 400, 0.2));
        assertThat(measurements.report().notes()).contains("2 queries left out: ran in windows some worker may not have followed yet");
        // The third counts once its window is complete: one window observation, though its shape has too few windows of
        // each arm to be compared yet.
        assertThat(measurements.report().estimate().unitsLeftOut()).as("its window is still open").isZero();
        clock.set((first + 6) * WINDOW + QueryMeasurements.MARGIN_MILLIS + QueryMeasurements.COMPLETE_AFTER_MILLIS);
        assertThat(measurements.report().estimate().unitsLeftOut()).isEqualTo(1);
        assertThat(measurements.rows().getFirst().leftOut()).isEqualTo(2);
        // A query heard after its window's observation was complete is left out, not added to it.
        measurements.record(query("a", (first + 5) * WINDOW + 500, (first + 5) * WINDOW + 600, 0.2));
        assertThat(measurements.report().notes()).contains("1 queries left out: completed after its window's observation was complete");
        // A worker that does not follow does not confirm.
        measurements.confirmed(schedule.epoch(), schedule.version() + 5, false, Map.of());
    }

    @Test
    void writesTheReportFilesWhereTheOperatorSaid(@TempDir Path directory)
            throws Exception
    {
        start(Map.of(MeasureKeys.REPORT_DIR, directory.toString()));
        run(measurements.schedule().orElseThrow().entries().getFirst().fromWindow(), 30, 1.0, 6);
        measurements.stop();
        String json = Files.readString(directory.resolve("chiplet-measure-trino-chiplet.json"));
        assertThat(json).contains("\"kind\" : \"chiplet-measure-report/1\"").contains("\"unit\" : \"window\"").contains("\"stratum\" : \"query shape\"")
                .contains("switchback windows");
        assertThat(Files.readString(directory.resolve("chiplet-measure-trino-chiplet.html"))).contains("<svg").contains("Chiplet placement");
        assertThat(measurements.started()).isFalse();
    }

    @Test
    void pluginCostCountsItsThreadsListenerCallsAndOwnStatementsEachOnACpuClock()
    {
        start(Map.of());
        run(measurements.schedule().orElseThrow().entries().getFirst().fromWindow(), 4, 1.0, 8);
        // 4 windows of 5 queries: 0.2 or 0.5 s each with 5 % noise, some 6.6 s of CPU in all.
        measurements.countHookCpu(5_000_000);
        measurements.countHookCpu(-3);
        measurements.countOwnStatement(7_000_000);
        MeasureReport report = measurements.report();
        // worker-1 reported 1 ms for its placement agent (confirmAll); the coordinator's chiplet-* threads are this JVM's.
        assertThat(report.cost().pluginCpuNanos()).isGreaterThanOrEqualTo(1_000_000 + 5_000_000 + 7_000_000);
        assertThat(report.cost().jobCpuNanos()).isBetween(5_000_000_000L, 8_000_000_000L);
        assertThat(report.notes()).anySatisfy(note -> assertThat(note).containsPattern("^plugin CPU \\d+ ms, all read from CPU clocks")
                .containsPattern("the coordinator's chiplet-\\* threads \\d+ ms and every worker's \\(the placement agent; 1 workers reported\\) 1 ms")
                .contains("the event listeners' and the session property manager's calls 5 ms, each on its thread's CPU clock")
                .contains("the plugin's own statements (worker reports, schedule publishing) 7 ms, as Trino counted them")
                .contains("of the 20 other queries completed"));
    }

    @Test
    void measuringOffPublishesNoScheduleAndComparesNothing()
    {
        start(Map.of(MeasureKeys.ENABLED, "false"));
        assertThat(measurements.schedule()).isEmpty();
        measurements.record(query("a", T0 + 5000, T0 + 5200, 0.2));
        assertThat(measurements.report().summaryLine()).contains("measuring is off");
        assertThat(measurements.start("other", MeasureKeys.defaults(), 1, () -> {})).as("one catalog measures").isFalse();
    }
}
