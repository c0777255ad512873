package io.chiplet.spark.measure;

import com.codahale.metrics.MetricRegistry;
import io.chiplet.measure.Arm;
import io.chiplet.measure.ArmAssignment;
import io.chiplet.measure.Directive;
import io.chiplet.measure.DrawnArm;
import io.chiplet.measure.MeasureReport;
import io.chiplet.settings.MeasureDesign;
import io.chiplet.settings.MeasureSettings;
import org.apache.spark.Success$;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.scheduler.TaskLocality;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class MeasuringListenerTest
{
    @Test
    void joinsArmsWithTaskEndsInEitherOrderEstimatesAndWritesTheReport(@TempDir Path reports)
            throws IOException
    {
        AtomicLong clock = new AtomicLong(1_000_000);
        MeasureSettings settings = new MeasureSettings(true, 0.1, io.chiplet.measure.GuardMode.AUTO, Optional.of(reports.resolve("out")), OptionalLong.of(3), OptionalDouble.empty());
        MeasuringListener listener = new MeasuringListener(settings, "test app", () -> "app-1", clock::get);
        MetricRegistry registry = new MetricRegistry();
        listener.register(registry);
        ArmAssignment assignment = new ArmAssignment(3);
        // A 95 % interval misses in one run of 20: this seed's run is one that holds (as most do).
        SplittableRandom random = new SplittableRandom(3);
        long task = 0;
        for (int stage = 0; stage < 4; stage++) {
            Map<Long, TaskArm> arms = new HashMap<>();
            for (int partition = 0; partition < 100; partition++) {
                Arm arm = assignment.of(stage, partition, 0.1);
                long bytes = 1_000_000 + random.nextInt(1_000_000);
                // Placed tasks take 0.8 of a control task's time per byte.
                long millis = Math.max(1, Math.round(bytes / 1000.0 * (arm == Arm.PLACED ? 0.8 : 1.0) * Math.exp(random.nextGaussian() * 0.1)));
                if (partition % 2 == 0) {
                    listener.onTaskEnd(taskEnd(stage, task, millis, bytes));
                    arms.put(task, TaskArm.of(new DrawnArm(arm, 0.1)));
                }
                else {
                    listener.receive(new ArmReport("1", 5_000_000, Map.of(task, TaskArm.of(new DrawnArm(arm, 0.1)))));
                    listener.onTaskEnd(taskEnd(stage, task, millis, bytes));
                }
                task++;
                clock.addAndGet(50);
            }
            listener.receive(new ArmReport("1", 5_000_000, arms));
        }
        listener.finish();

        assertThat(listener.latest().estimate().placedUnits()).isEqualTo(360);
        assertThat(listener.latest().estimate().controlUnits()).isEqualTo(40);
        assertThat(listener.latest().estimate().speedUpLow().orElseThrow()).isLessThan(1.25);
        assertThat(listener.latest().estimate().speedUpHigh().orElseThrow()).isGreaterThan(1.25);
        assertThat((Double) registry.getGauges().get("measure.speedUp").getValue()).isBetween(1.15, 1.35);
        assertThat(registry.getGauges().get("measure.tasks.control").getValue()).isEqualTo(40);
        // CPU: each task 1 ms of executor CPU time, the executor's plugin 5 ms in all.
        assertThat(listener.latest().cost().jobCpuNanos()).isEqualTo(400 * 1_000_000L);
        assertThat(listener.latest().cost().pluginCpuNanos()).isGreaterThanOrEqualTo(5_000_000L);
        Path json = reports.resolve("out/chiplet-measure-app-1.json");
        assertThat(Files.readString(json)).contains("\"kind\" : \"chiplet-measure-report/1\"").contains("\"verdict\" : \"placed faster\"");
        assertThat(Files.readString(reports.resolve("out/chiplet-measure-app-1.html"))).contains("<svg");
    }

    @Test
    void executorModeDrawsWholeExecutorsInTheOrderTheyAskAndComparesTheirTasksWithinStages()
    {
        AtomicLong clock = new AtomicLong(1_000_000);
        MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.ALWAYS, Optional.empty(), OptionalLong.of(3), OptionalDouble.empty());
        MeasuringListener listener = new MeasuringListener(settings, "executors app", () -> "app-3", clock::get);
        Map<String, DrawnArm> drawn = new HashMap<>();
        List<String> executors = List.of("1", "2", "3", "4", "5", "6", "7");
        for (String executor : executors) {
            drawn.put(executor, (DrawnArm) MeasureMessages.decode(listener.receive(new ExecutorArmRequest(executor))).orElseThrow());
        }
        // The first executor is placed; each later pair at a share of 0.5 has one control; asking again changes nothing.
        assertThat(drawn.get("1")).isEqualTo(new DrawnArm(Arm.PLACED, 0.5));
        for (List<String> pair : List.of(List.of("2", "3"), List.of("4", "5"), List.of("6", "7"))) {
            assertThat(pair).filteredOn(executor -> drawn.get(executor).arm() == Arm.CONTROL).hasSize(1);
        }
        assertThat(MeasureMessages.decode(listener.receive(new ExecutorArmRequest("3")))).contains(drawn.get("3"));

        SplittableRandom random = new SplittableRandom(2);
        long task = 0;
        for (int stage = 0; stage < 3; stage++) {
            for (int partition = 0; partition < 70; partition++) {
                String executor = executors.get(partition % 7);
                DrawnArm arm = drawn.get(executor);
                long bytes = 1_000_000 + random.nextInt(1_000_000);
                long millis = Math.max(1, Math.round(bytes / 1000.0 * (arm.arm() == Arm.PLACED ? 0.8 : 1.0) * Math.exp(random.nextGaussian() * 0.1)));
                // The driver knows every task's arm from its executor's: no per-task report needed (a short application's last one is often lost).
                listener.onTaskEnd(taskEnd(stage, task, millis, bytes, executor));
                task++;
                clock.addAndGet(50);
            }
        }
        listener.finish();

        MeasureReport report = listener.latest();
        // The first executor, always placed, is no randomised unit: its tasks are not compared.
        assertThat(report.estimate().placedUnits()).isEqualTo(3 * 30);
        assertThat(report.estimate().controlUnits()).isEqualTo(3 * 30);
        assertThat(report.notes()).contains("30 tasks of the first executor (1, always placed, not a randomised unit) not compared.");
        // The interval is over executors, so wider than over tasks: 3 placed and 3 control executors (the first not
        // compared), less one per arm for its mean; the injected 1.25 recovered.
        assertThat(report.estimate().placedClusters()).isEqualTo(3);
        assertThat(report.estimate().controlClusters()).isEqualTo(3);
        assertThat(report.estimate().degreesOfFreedom()).isBetween(1.0, 4.0 + 1e-9);
        assertThat(report.estimate().speedUp().orElseThrow()).isCloseTo(1.25, org.assertj.core.data.Offset.offset(0.04));
        assertThat(report.estimate().speedUpLow().orElseThrow()).isLessThan(1.25);
        assertThat(report.estimate().speedUpHigh().orElseThrow()).isGreaterThan(1.25);
        assertThat(report.design()).isEqualTo(MeasuringListener.EXECUTOR_DESIGN);
        assertThat(report.notes()).contains("7 executors in executor mode: 4 placed, 3 control.", MeasuringListener.EXECUTOR_CAVEAT);
    }

    @Test
    void theGuardStopsPlacementAndTheReplySaysSo()
    {
        AtomicLong clock = new AtomicLong(0);
        MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.AUTO, Optional.empty(), OptionalLong.of(3), OptionalDouble.empty());
        MeasuringListener listener = new MeasuringListener(settings, "slow app", () -> "app-2", clock::get);
        ArmAssignment assignment = new ArmAssignment(3);
        String reply = null;
        long task = 0;
        for (int partition = 0; partition < 200; partition++) {
            Arm arm = assignment.of(0, partition, 0.5);
            listener.onTaskEnd(taskEnd(0, task, arm == Arm.PLACED ? 130 + partition % 7 : 100 + partition % 5, 1000));
            clock.addAndGet(2_000);
            reply = listener.receive(new ArmReport("1", 0, Map.of(task++, TaskArm.of(new DrawnArm(arm, 0.5)))));
        }

        assertThat(MeasureMessages.decode(reply)).contains(new Directive(0, false));
        assertThat(listener.latest().guard().placing()).isFalse();
        assertThat(listener.latest().summaryLine()).contains("placement stopped");
    }

    @Test
    void inWindowsTasksAreComparedWithinStageNamesOverHostWindowsAndTheLeftOutAreCounted()
    {
        AtomicLong clock = new AtomicLong(0);
        MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.ALWAYS, Optional.empty(), OptionalLong.empty(), OptionalDouble.empty(),
                MeasureDesign.WINDOW, java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100), Optional.empty(), Optional.empty());
        MeasuringListener listener = new MeasuringListener(settings, "windows app", () -> "app-4", clock::get, () -> 77);
        assertThat(listener.seed()).isEqualTo(77);
        io.chiplet.measure.SwitchbackSchedule schedule = settings.withSeed(77).schedule();
        Directive half = new Directive(0.5, true);
        SplittableRandom random = new SplittableRandom(5);
        long task = 0;
        int stage = 0;
        for (long window = 0; window < 60; window++) {
            for (String host : List.of("boot a", "boot b")) {
                io.chiplet.measure.SwitchbackSchedule.Start start = schedule.start(io.chiplet.measure.SwitchbackSchedule.hostStratum(host), window * 1_000 + 500, half);
                // What the window shares (the machine's load then): a tenth, lognormal.
                double windowFactor = Math.exp(random.nextGaussian() * 0.1);
                Map<Long, TaskArm> arms = new HashMap<>();
                for (String name : List.of("count at a.py:3", "collect at b.py:9")) {
                    listener.onStageSubmitted(new SparkListenerStageSubmitted(stageInfo(stage, name), new java.util.Properties()));
                    for (int partition = 0; partition < 5; partition++) {
                        long bytes = 1_000_000 + random.nextInt(1_000_000);
                        long millis = Math.max(1, Math.round(bytes / 1000.0 * (start.arm().arm() == Arm.PLACED ? 0.8 : 1.0) * windowFactor * Math.exp(random.nextGaussian() * 0.1)));
                        listener.onTaskEnd(taskEnd(stage, task, millis, bytes, host.equals("boot a") ? "1" : "2"));
                        arms.put(task++, new TaskArm(start.arm(), start.window(), Optional.empty()));
                    }
                    stage++;
                }
                // Left out by the executor's rule: counted, not compared.
                listener.onTaskEnd(taskEnd(stage - 1, task, 900, 1_000_000, host.equals("boot a") ? "1" : "2"));
                arms.put(task++, new TaskArm(start.arm(), start.window(), Optional.of(window % 2 == 0 ? io.chiplet.measure.SwitchbackSchedule.Exclusion.WASHOUT
                        : io.chiplet.measure.SwitchbackSchedule.Exclusion.SPANNING)));
                listener.receive(new ArmReport(host.equals("boot a") ? "1" : "2", 1_000, arms, host, false));
            }
            clock.addAndGet(1_000);
        }
        listener.finish();

        MeasureReport report = listener.latest();
        assertThat(report.estimate().enough()).isTrue();
        // Two strata (the stage names), each window of each host one cluster: 120 windows in all.
        assertThat(report.estimate().strataCompared()).isEqualTo(2);
        assertThat(report.estimate().placedClusters() + report.estimate().controlClusters()).isEqualTo(120);
        assertThat(report.estimate().placedUnits() + report.estimate().controlUnits()).isEqualTo(120 * 10);
        assertThat(report.estimate().speedUpLow().orElseThrow()).isLessThan(1.25);
        assertThat(report.estimate().speedUpHigh().orElseThrow()).isGreaterThan(1.25);
        assertThat(report.design()).isEqualTo(MeasuringListener.WINDOW_DESIGN);
        assertThat(report.notes()).contains("Seed 77 (drawn for this application).", "Windows of 1000 ms per host, washout 100 ms: 60 tasks left out as started in a washout, 60 as spanning a switch.")
                .doesNotContain(MeasuringListener.TASK_INTERFERENCE);
        assertThat(report.plan().seed()).isEqualTo(77);
    }

    @Test
    void inWindowsTheDriverLengthensTheWindowFromTheNextBoundaryAndSendsItWithTheDirective()
    {
        AtomicLong clock = new AtomicLong(5_500);
        MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.ALWAYS, Optional.empty(), OptionalLong.empty(), OptionalDouble.empty(),
                MeasureDesign.WINDOW, java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100), Optional.empty(), Optional.empty());
        MeasuringListener listener = new MeasuringListener(settings, "long tasks", () -> "app-7", clock::get, () -> 78);
        // Fewer tasks than the rule needs: the configured window.
        for (long task = 0; task < io.chiplet.measure.WindowLength.DEFAULT_MIN_TASKS - 1; task++) {
            listener.onTaskEnd(taskEnd(0, task, 3_000, 1_000_000));
        }
        assertThat(MeasureMessages.decode(listener.receive(new ArmReport("1", 0, Map.of(), "boot a", false))))
                .contains(new HostDirective(new Directive(0.5, true), io.chiplet.measure.WindowSteps.BASE));
        // Tasks of 3 s: windows of at least 12 s, so 16 s (2^4 base windows, the cap), from base window 16, the next
        // boundary of 16 s after base window 5.
        for (long task = 100; task < 100 + MeasuringListener.DECIDE_EVERY; task++) {
            listener.onTaskEnd(taskEnd(0, task, 3_000, 1_000_000));
        }
        io.chiplet.measure.WindowSteps grown = io.chiplet.measure.WindowSteps.BASE.grow(4, 6);
        assertThat(grown.steps().get(1)).isEqualTo(new io.chiplet.measure.WindowSteps.Step(16, 4));
        assertThat(MeasureMessages.decode(listener.receive(new ArmReport("1", 0, Map.of(), "boot a", false))))
                .contains(new HostDirective(new Directive(0.5, true), grown));
        // Shorter tasks later never shorten it.
        for (long task = 200; task < 400; task++) {
            listener.onTaskEnd(taskEnd(0, task, 10, 1_000_000));
        }
        assertThat(listener.windowSteps()).isEqualTo(grown);
        listener.finish();
        assertThat(listener.latest().notes()).contains("Windows lengthened to 16000 ms from 1970-01-01T00:00:16Z on by the window rule (at least 4 times the tasks' 90th percentile run time).");
    }

    @Test
    void perTaskTheDriverSendsTheDirectiveAlone()
    {
        MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.ALWAYS, Optional.empty(), OptionalLong.empty(), OptionalDouble.empty(),
                MeasureDesign.TASK, java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100), Optional.empty(), Optional.empty());
        MeasuringListener listener = new MeasuringListener(settings, "tasks", () -> "app-8", () -> 0, () -> 79);
        for (long task = 0; task < 100; task++) {
            listener.onTaskEnd(taskEnd(0, task, 3_000, 1_000_000));
        }
        assertThat(MeasureMessages.decode(listener.receive(new ArmReport("1", 0, Map.of(), "boot a", false)))).contains(new Directive(0.5, true));
    }

    @Test
    void inWindowsTheLeftOutTasksWorkReachesTheEstimate()
    {
        // One stage, two hosts, 40 windows of 1 s. In each host's window: 20 tasks of 1 MB (placed 0.5 s per MB, control
        // 1 s), one of 4 MB compared (placed 2 s per MB, control 1 s) and 10 of 4 MB, 6 s each, that spanned a switch.
        // The compared tasks alone say placed faster (0.75 s per MB against 1); the job's time is mostly in the big
        // tasks the design left out, and with their work in the big size class the figure says what the job got:
        // (20 x 0.5 + (4 + 60 / 1.5) x 2) / (20 + 44) = 98 / 64 placed over control, a speed-up of 64 / 98.
        AtomicLong clock = new AtomicLong(0);
        MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.ALWAYS, Optional.empty(), OptionalLong.empty(), OptionalDouble.empty(),
                MeasureDesign.WINDOW, java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100), Optional.empty(), Optional.empty());
        MeasuringListener listener = new MeasuringListener(settings, "left-out app", () -> "app-6", clock::get, () -> 78);
        io.chiplet.measure.SwitchbackSchedule schedule = settings.withSeed(78).schedule();
        Directive half = new Directive(0.5, true);
        long task = 0;
        int stage = 0;
        for (long window = 0; window < 40; window++) {
            for (String host : List.of("boot a", "boot b")) {
                String executor = host.equals("boot a") ? "1" : "2";
                io.chiplet.measure.SwitchbackSchedule.Start start = schedule.start(io.chiplet.measure.SwitchbackSchedule.hostStratum(host), window * 1_000 + 500, half);
                boolean placed = start.arm().arm() == Arm.PLACED;
                Map<Long, TaskArm> arms = new HashMap<>();
                listener.onStageSubmitted(new SparkListenerStageSubmitted(stageInfo(stage, "map at c.py:1"), new java.util.Properties()));
                for (int small = 0; small < 20; small++) {
                    listener.onTaskEnd(taskEnd(stage, task, placed ? 500 : 1_000, 1_000_000, executor));
                    arms.put(task++, new TaskArm(start.arm(), start.window(), Optional.empty()));
                }
                listener.onTaskEnd(taskEnd(stage, task, placed ? 8_000 : 4_000, 4_000_000, executor));
                arms.put(task++, new TaskArm(start.arm(), start.window(), Optional.empty()));
                for (int big = 0; big < 10; big++) {
                    listener.onTaskEnd(taskEnd(stage, task, 6_000, 4_000_000, executor));
                    arms.put(task++, new TaskArm(start.arm(), start.window(), Optional.of(io.chiplet.measure.SwitchbackSchedule.Exclusion.SPANNING)));
                }
                listener.receive(new ArmReport(executor, 1_000, arms, host, false));
                stage++;
            }
            clock.addAndGet(1_000);
        }
        listener.finish();

        io.chiplet.measure.ArmEstimate estimate = listener.latest().estimate();
        assertThat(estimate.placedUnits() + estimate.controlUnits()).isEqualTo(80 * 21);
        assertThat(estimate.speedUp().orElseThrow()).isCloseTo(64.0 / 98, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(estimate.placedSlower()).isTrue();
        assertThat(listener.latest().notes()).contains("Windows of 1000 ms per host, washout 100 ms: 0 tasks left out as started in a washout, 800 as spanning a switch.");
    }

    @Test
    void executorsOnHostsOfOneL3SayPlacementWasNotMeasured()
    {
        MeasureSettings settings = new MeasureSettings(true, 0.1, io.chiplet.measure.GuardMode.AUTO, Optional.empty(), OptionalLong.of(3), OptionalDouble.empty());
        MeasuringListener listener = new MeasuringListener(settings, "small app", () -> "app-5", () -> 0);
        listener.onTaskEnd(taskEnd(0, 1, 100, 1000));
        listener.receive(new ArmReport("1", 1_000, Map.of(), "boot a", true));
        listener.finish();

        assertThat(listener.summaryLine()).startsWith("Chiplet placement not measured for small app (app-5): " + MeasureReport.ONE_L3_GROUP);
        assertThat(listener.latest().notMeasured()).contains(MeasureReport.ONE_L3_GROUP);
    }

    @Test
    void runsOfOneKeyAddUpInTheHistoryAndUnreadableLinesAreSkipped(@TempDir Path state)
            throws IOException
    {
        Path historyDir = state.resolve("history");
        Files.createDirectories(historyDir);
        Files.writeString(historyDir.resolve(RunHistory.FILE_NAME), "not json\n{\"kind\":\"chiplet-measure-run/1\"}\n");
        for (int run = 0; run < 3; run++) {
            MeasureSettings settings = new MeasureSettings(true, 0.5, io.chiplet.measure.GuardMode.ALWAYS, Optional.empty(), OptionalLong.empty(), OptionalDouble.empty(),
                    MeasureDesign.TASK, java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100), Optional.of(historyDir), Optional.of("etl-daily"));
            // Each run draws its own seed, as the driver does; here from a fixed sequence, so that which tasks fall in which
            // arm (and so the pooled figures) is the same in every build, not a new SecureRandom draw each time.
            long drawnSeed = 9_001L + run;
            MeasuringListener listener = new MeasuringListener(settings, "etl " + run, () -> "app-" + drawnSeed, new AtomicLong(run * 100_000L)::get, () -> drawnSeed);
            feedTaskArms(listener, listener.seed(), 0.8, new SplittableRandom(run));
            listener.finish();
            assertThat(listener.summaryLine()).contains("over the last " + (run + 1) + (run == 0 ? " run of etl-daily" : " runs of etl-daily"))
                    .contains("(2 unreadable lines of the history skipped)");
            String pooled = "over the last " + (run + 1);
            assertThat(listener.latest().notes()).anySatisfy(note -> assertThat(note).startsWith(pooled));
        }
        // Each run's seed drawn for it and recorded.
        assertThat(RunHistory.open(historyDir, new StringBuilder()).orElseThrow().read().runs()).extracting(io.chiplet.measure.RunRecord::seed)
                .containsExactly(9_001L, 9_002L, 9_003L);
        RunHistory.Read read = RunHistory.open(historyDir, new StringBuilder()).orElseThrow().read();
        assertThat(read.runs()).hasSize(3);
        assertThat(read.runs().stream().map(io.chiplet.measure.RunRecord::seed).distinct()).hasSize(3);
        assertThat(read.skipped()).isEqualTo(2);
    }

    /** Task-level arms of 4 stages of 100 tasks at share 0.5, placed tasks taking {@code ratio} of a control task's time per byte. */
    private static void feedTaskArms(MeasuringListener listener, long seed, double ratio, SplittableRandom random)
    {
        ArmAssignment assignment = new ArmAssignment(seed);
        long task = 0;
        for (int stage = 0; stage < 4; stage++) {
            Map<Long, TaskArm> arms = new HashMap<>();
            for (int partition = 0; partition < 100; partition++) {
                Arm arm = assignment.of(stage, partition, 0.5);
                long bytes = 1_000_000 + random.nextInt(1_000_000);
                long millis = Math.max(1, Math.round(bytes / 1000.0 * (arm == Arm.PLACED ? ratio : 1.0) * Math.exp(random.nextGaussian() * 0.1)));
                listener.onTaskEnd(taskEnd(stage, task, millis, bytes));
                arms.put(task++, TaskArm.of(new DrawnArm(arm, 0.5)));
            }
            listener.receive(new ArmReport("1", 1_000, arms));
        }
    }

    private static org.apache.spark.scheduler.StageInfo stageInfo(int id, String name)
    {
        scala.collection.immutable.Seq<Object> none = scala.jdk.javaapi.CollectionConverters.asScala(List.<Object>of()).toSeq();
        return new org.apache.spark.scheduler.StageInfo(id, 0, name, 5, scala.jdk.javaapi.CollectionConverters.asScala(List.<org.apache.spark.storage.RDDInfo>of()).toSeq(),
                none, "", TaskMetrics.empty(), scala.jdk.javaapi.CollectionConverters.asScala(List.<scala.collection.immutable.Seq<org.apache.spark.scheduler.TaskLocation>>of()).toSeq(),
                scala.Option.empty(), 0, false, 0);
    }

    @Test
    void reEstimatesOnlyWhereTasksWereRecordedSinceTheLastEstimate(@TempDir Path reports)
    {
        AtomicLong clock = new AtomicLong(1_000_000);
        MeasureSettings settings = new MeasureSettings(true, 0.1, io.chiplet.measure.GuardMode.AUTO, Optional.of(reports.resolve("out")), OptionalLong.of(3), OptionalDouble.empty());
        MeasuringListener listener = new MeasuringListener(settings, "test app", () -> "app-1", clock::get);
        listener.receive(new ArmReport("1", 1_000_000, Map.of(0L, TaskArm.of(new DrawnArm(Arm.PLACED, 0.1)))));
        clock.addAndGet(1_500);
        listener.onTaskEnd(taskEnd(0, 0, 10, 1_000_000));
        MeasureReport afterTask = listener.latest();
        assertThat(afterTask.notes()).anySatisfy(note -> assertThat(note).contains("1 executors' 1.0 ms"));

        // Idle executors' reports, seconds apart: nothing new to estimate, so the last estimate and report stand.
        for (int second = 0; second < 5; second++) {
            clock.addAndGet(1_500);
            listener.receive(new ArmReport("1", 2_000_000, Map.of()));
        }
        assertThat(listener.latest()).isSameAs(afterTask);

        // A task recorded: the next chance re-estimates, with the executor's latest CPU time.
        listener.receive(new ArmReport("1", 3_000_000, Map.of(1L, TaskArm.of(new DrawnArm(Arm.PLACED, 0.1)))));
        listener.onTaskEnd(taskEnd(0, 1, 10, 1_000_000));
        assertThat(listener.latest()).isNotSameAs(afterTask);
        assertThat(listener.latest().cost().pluginCpuNanos()).isGreaterThanOrEqualTo(3_000_000L);
        assertThat(listener.latest().notes()).anySatisfy(note -> assertThat(note).startsWith("Plugin CPU ").contains("1 executors' 3.0 ms"));
    }

    private static SparkListenerTaskEnd taskEnd(int stage, long task, long millis, long bytes)
    {
        return taskEnd(stage, task, millis, bytes, "1");
    }

    private static SparkListenerTaskEnd taskEnd(int stage, long task, long millis, long bytes, String executor)
    {
        TaskMetrics metrics = TaskMetrics.empty();
        metrics.setExecutorRunTime(millis);
        metrics.setExecutorCpuTime(1_000_000);
        metrics.inputMetrics().incBytesRead(bytes);
        metrics.inputMetrics().incRecordsRead(bytes / 100);
        TaskInfo info = new TaskInfo(task, (int) task, 0, (int) task, 0L, executor, "host-a", TaskLocality.PROCESS_LOCAL(), false);
        return new SparkListenerTaskEnd(stage, 0, "ResultTask", Success$.MODULE$, info, null, metrics);
    }
}
