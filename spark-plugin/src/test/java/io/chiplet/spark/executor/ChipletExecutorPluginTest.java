package io.chiplet.spark.executor;

import io.chiplet.affinity.LeaseClaim;
import io.chiplet.affinity.LeaseCoordinator;
import io.chiplet.measure.Arm;
import io.chiplet.measure.DrawnArm;
import io.chiplet.placement.PartitionBasis;
import io.chiplet.report.MachinePicture;
import io.chiplet.settings.PlacementMode;
import io.chiplet.spark.FakePluginContext;
import io.chiplet.spark.driver.ChipletDriverPlugin;
import io.chiplet.spark.measure.ArmReport;
import io.chiplet.spark.measure.ExecutorArmRequest;
import io.chiplet.spark.measure.MeasureMessages;
import io.chiplet.spark.messages.PluginMessages;
import io.chiplet.spark.messages.TaskPlaces;
import io.chiplet.spark.messages.TopologyReport;
import io.chiplet.spark.placement.PlacementContext;
import io.chiplet.spark.placement.RecordingTaskPlacement;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.spark.skew.SpreadHints;
import io.chiplet.spark.topology.ExecutorChiplets;
import io.chiplet.spark.topology.TopologySource;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static io.chiplet.spark.topology.ExecutorTopologies.chiplet;
import static io.chiplet.spark.topology.ExecutorTopologies.topology;
import static org.assertj.core.api.Assertions.assertThat;

class ChipletExecutorPluginTest
{
    private static final long MIB = 1L << 20;
    private static final Topology TWO_CHIPLETS = topology(CpuSet.range(0, 7), List.of(chiplet(0, CpuSet.range(0, 3), 32 * MIB), chiplet(1, CpuSet.range(4, 7), 32 * MIB)));
    /**
     * For tests about placement, not measuring: with measuring on, the host's arm follows the wall clock's window, and
     * a test run inside a control window would see no task placed.
     */
    private static final Map<String, String> NOT_MEASURING = Map.of("spark.chiplet.measure.enabled", "false");
    private static final Topology ONE_CHIPLET = topology(CpuSet.range(0, 7), List.of(chiplet(0, CpuSet.range(0, 7), 32 * MIB)));

    private final RecordingTaskPlacement placement = new RecordingTaskPlacement(2);
    private final AtomicReference<TaskPlacement.TaskIdentity> currentTask = new AtomicReference<>();

    @Test
    void reportsTheMachineAndPlacesEveryTaskBetweenStartAndEnd()
    {
        // Measuring off: no control tasks (MeasuredTaskPlacementTest has those).
        FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.measure.enabled", "false"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = plugin(settings -> TWO_CHIPLETS);
        plugin.init(context, Map.of());

        assertThat(context.asked()).hasSize(1).first().usingRecursiveComparison().ignoringFields("machine", "cpus")
                .isEqualTo(new TopologyReport("7", "node-1", PlacementMode.TASK, new PartitionBasis(2, 8, 8 * MIB, 32 * MIB), false));
        // The host's picture and the executor's CPUs, for the Chiplet tab.
        TopologyReport report = (TopologyReport) context.asked().getFirst();
        assertThat(MachinePicture.parse(report.machine())).isEqualTo(MachinePicture.of(TWO_CHIPLETS));
        assertThat(report.cpus()).isEqualTo("0-7");

        for (int partition = 0; partition < 5; partition++) {
            runTask(plugin, new TaskPlacement.TaskIdentity(3, partition, 100 + partition), partition != 4);
        }
        assertThat(placement.started()).extracting(placed -> placed.task().partitionId()).containsExactly(0, 1, 2, 3, 4);
        // Each end gets the handle its own start returned.
        assertThat(placement.ended()).containsExactlyElementsOf(placement.started());
        assertThat(context.metricRegistry().getGauges().get("tasks.chiplet.0").getValue()).isEqualTo(3L);
        assertThat(context.metricRegistry().getGauges().get("tasks.chiplet.1").getValue()).isEqualTo(2L);
        assertThat(context.metricRegistry().getGauges().get("tasks.failed").getValue()).isEqualTo(1L);

        plugin.shutdown();
        assertThat(placement.closed()).isTrue();
        // Where the tasks ran goes to the driver with the counts: per stage and chiplet, and one by one.
        List<TaskPlaces> places = context.asked().stream().map(PluginMessages::decode).filter(TaskPlaces.class::isInstance).map(TaskPlaces.class::cast).toList();
        assertThat(places.stream().flatMap(sent -> sent.stages().stream()).filter(row -> row.stageId() == 3)
                .collect(java.util.stream.Collectors.groupingBy(TaskPlaces.StageChiplet::chiplet, java.util.stream.Collectors.summingLong(TaskPlaces.StageChiplet::tasks))))
                .containsOnly(Map.entry(0, 3L), Map.entry(1, 2L));
        assertThat(places.stream().flatMap(sent -> sent.recent().stream())).extracting(TaskPlaces.TaskPlace::taskId).containsExactly(100L, 101L, 102L, 103L, 104L);
        assertThat(places.stream().flatMap(sent -> sent.recent().stream()).filter(TaskPlaces.TaskPlace::failed)).extracting(TaskPlaces.TaskPlace::partition).containsExactly(4);
        assertThat(places.stream().flatMap(sent -> sent.recent().stream())).allSatisfy(task -> assertThat(task.arm()).as("not measured").isEmpty());
    }

    @Test
    void measuringByTaskLeavesAShareOfEachStagesTasksUnplaced()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.app.id", "app-9", "spark.chiplet.measure.design", "task"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = plugin(settings -> TWO_CHIPLETS);
        plugin.init(context, Map.of());
        for (int partition = 0; partition < 40; partition++) {
            runTask(plugin, new TaskPlacement.TaskIdentity(3, partition, 100 + partition), true);
        }
        plugin.shutdown();

        // One control task in each block of ten partitions: core's draw.
        assertThat(placement.started()).hasSize(36);
        assertThat(context.metricRegistry().getGauges().get("tasks.unplaced").getValue()).isEqualTo(4L);
    }

    @Test
    void measuringByDefaultGivesEveryTaskOfAWindowItsHostsArmAndTheDriversSeed()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.app.id", "app-9", "spark.chiplet.measure.window", "1m"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = plugin(settings -> TWO_CHIPLETS);
        plugin.init(context, Map.of(io.chiplet.spark.driver.ChipletDriverPlugin.MEASURE_SEED, "4242"));
        for (int partition = 0; partition < 40; partition++) {
            runTask(plugin, new TaskPlacement.TaskIdentity(3, partition, 100 + partition), true);
        }
        plugin.shutdown();

        Map<Long, io.chiplet.spark.measure.TaskArm> reported = new java.util.HashMap<>();
        context.measureMessages().stream().filter(ArmReport.class::isInstance).map(ArmReport.class::cast).forEach(report -> reported.putAll(report.arms()));
        assertThat(reported).hasSize(40);
        // All within (at most two) windows of a minute: the host's arm under the driver's seed, the same for every task of a window.
        io.chiplet.measure.SwitchbackSchedule schedule = io.chiplet.measure.SwitchbackSchedule.of(4242, 60_000, 1_000);
        long host = io.chiplet.measure.SwitchbackSchedule.hostStratum(io.chiplet.spark.measure.HostKey.live());
        assertThat(reported.values()).allSatisfy(arm -> assertThat(arm.drawn().arm())
                .isEqualTo(schedule.start(host, arm.window() * 60_000 + 30_000, new io.chiplet.measure.Directive(0.1, true)).arm().arm()));
        long placedTasks = reported.values().stream().filter(arm -> arm.drawn().arm() == Arm.PLACED).count();
        assertThat(placement.started()).hasSize((int) placedTasks);
        assertThat(context.measureMessages().stream().filter(ArmReport.class::isInstance).map(ArmReport.class::cast))
                .allSatisfy(report -> assertThat(report.hostKey()).isEqualTo(io.chiplet.spark.measure.HostKey.live()));
    }

    @Test
    void onAHostOfOneL3NoTaskIsControlAndTheDriverHearsSo()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.app.id", "app-9", "spark.chiplet.measure.design", "task"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = plugin(settings -> ONE_CHIPLET);
        plugin.init(context, Map.of());
        for (int partition = 0; partition < 40; partition++) {
            runTask(plugin, new TaskPlacement.TaskIdentity(3, partition, 100 + partition), true);
        }
        plugin.shutdown();

        assertThat(placement.started()).hasSize(40);
        List<ArmReport> reports = context.measureMessages().stream().filter(ArmReport.class::isInstance).map(ArmReport.class::cast).toList();
        assertThat(reports).isNotEmpty().allSatisfy(report -> {
            assertThat(report.oneL3()).isTrue();
            assertThat(report.arms()).isEmpty();
        });
    }

    @Test
    void inExecutorModeTheDriverDrawsTheWholeExecutorAndAControlExecutorLeasesAndBindsNothing()
    {
        for (Arm drawn : Arm.values()) {
            AtomicInteger created = new AtomicInteger();
            RecordingTaskPlacement bound = new RecordingTaskPlacement(2);
            FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.mode", "executor"),
                    message -> message instanceof ExecutorArmRequest ? MeasureMessages.encode(new DrawnArm(drawn, 0.1)) : SpreadHints.NONE);
            ChipletExecutorPlugin plugin = new ChipletExecutorPlugin(settings -> TWO_CHIPLETS, placementContext -> {
                created.incrementAndGet();
                return bound;
            }, currentTask::get);
            plugin.init(context, Map.of());
            for (int partition = 0; partition < 12; partition++) {
                runTask(plugin, new TaskPlacement.TaskIdentity(3, partition, 100 + partition), true);
            }
            plugin.shutdown();

            // The arm is asked before anything is placed; a control executor never makes its placement (no lease, no binding).
            assertThat(context.measureMessages().getFirst()).isEqualTo(new ExecutorArmRequest("7"));
            assertThat(created.get()).as(drawn.name()).isEqualTo(drawn == Arm.PLACED ? 1 : 0);
            assertThat(bound.started()).as(drawn.name()).hasSize(drawn == Arm.PLACED ? 12 : 0);
            // Every task carries the executor's arm to the driver, none drawn per task.
            Map<Long, io.chiplet.spark.measure.TaskArm> reported = new java.util.HashMap<>();
            context.measureMessages().stream().filter(ArmReport.class::isInstance).map(ArmReport.class::cast).forEach(report -> reported.putAll(report.arms()));
            assertThat(reported).hasSize(12).allSatisfy((task, arm) -> assertThat(arm).isEqualTo(io.chiplet.spark.measure.TaskArm.of(new DrawnArm(drawn, 0.1))));
        }
    }

    @Test
    void inExecutorModeADriverWithoutAnArmLeavesTheExecutorPlacedAndUnmeasured()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.mode", "executor"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = plugin(settings -> TWO_CHIPLETS);
        plugin.init(context, Map.of());
        for (int partition = 0; partition < 12; partition++) {
            runTask(plugin, new TaskPlacement.TaskIdentity(3, partition, 100 + partition), true);
        }
        plugin.shutdown();

        assertThat(placement.started()).hasSize(12);
        assertThat(context.measureMessages()).containsExactly(new ExecutorArmRequest("7"));
    }

    @Test
    void inExecutorModeTheReportSaysWhetherTheExecutorLeasedAChipletOfItsOwn()
    {
        for (boolean leased : List.of(true, false)) {
            // As ExecutorProcessPlacement: a leased chiplet under wicp-local, nothing under wim.
            TaskPlacement process = new TaskPlacement()
            {
                @Override
                public Handle onTaskStart(TaskIdentity task)
                {
                    return Handle.UNPLACED;
                }

                @Override
                public void onTaskEnd(Handle handle) {}

                @Override
                public boolean holdsOwnChiplets()
                {
                    return leased;
                }
            };
            FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.mode", "executor", "spark.chiplet.measure.enabled", "false"), message -> SpreadHints.NONE);
            ChipletExecutorPlugin plugin = new ChipletExecutorPlugin(settings -> TWO_CHIPLETS, ignored -> process, currentTask::get);
            plugin.init(context, Map.of());
            plugin.shutdown();

            // The report is the first message (counts follow at shutdown).
            assertThat(context.asked().getFirst()).as("leased %s", leased).usingRecursiveComparison().ignoringFields("machine", "cpus")
                    .isEqualTo(new TopologyReport("7", "node-1", PlacementMode.EXECUTOR, new PartitionBasis(2, 8, 8 * MIB, 32 * MIB), leased));
        }
    }

    @Test
    void anExecutorOwningOneChipletByDesignCountsOnlyThatChiplet()
    {
        // As executor mode: every task on the leased chiplet 1.
        TaskPlacement leased = new TaskPlacement()
        {
            @Override
            public Handle onTaskStart(TaskIdentity task)
            {
                return () -> java.util.OptionalInt.of(1);
            }

            @Override
            public void onTaskEnd(Handle handle) {}

            @Override
            public List<Integer> chipletIds(List<Integer> usable)
            {
                return List.of(1);
            }
        };
        FakePluginContext context = new FakePluginContext(NOT_MEASURING, message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = new ChipletExecutorPlugin(settings -> TWO_CHIPLETS, ignored -> leased, currentTask::get);
        plugin.init(context, Map.of());
        for (int partition = 0; partition < 4; partition++) {
            runTask(plugin, new TaskPlacement.TaskIdentity(0, partition, partition), true);
        }
        var gauges = context.metricRegistry().getGauges();
        assertThat(gauges).containsKey("tasks.chiplet.1").doesNotContainKey("tasks.chiplet.0");
        assertThat(gauges.get("skew").getValue()).isEqualTo(1.0);
        plugin.shutdown();
    }

    @Test
    void failingPlacementSwitchesOffButStillEndsWhatItStarted()
    {
        AtomicInteger starts = new AtomicInteger();
        TaskPlacement failing = new TaskPlacement()
        {
            @Override
            public Handle onTaskStart(TaskIdentity task)
            {
                if (starts.incrementAndGet() == 2) {
                    throw new IllegalStateException("sched_setaffinity: EPERM");
                }
                return placement.onTaskStart(task);
            }

            @Override
            public void onTaskEnd(Handle handle)
            {
                placement.onTaskEnd(handle);
            }
        };
        ChipletExecutorPlugin plugin = new ChipletExecutorPlugin(settings -> TWO_CHIPLETS, context -> failing, currentTask::get);
        plugin.init(new FakePluginContext(NOT_MEASURING, message -> SpreadHints.NONE), Map.of());

        currentTask.set(new TaskPlacement.TaskIdentity(0, 0, 1));
        plugin.onTaskStart();
        // Second task's start fails: the plugin is off from here, while the first task still runs.
        runTask(plugin, new TaskPlacement.TaskIdentity(0, 1, 2), true);
        runTask(plugin, new TaskPlacement.TaskIdentity(0, 2, 3), true);
        assertThat(starts).hasValue(2);

        currentTask.set(new TaskPlacement.TaskIdentity(0, 0, 1));
        plugin.onTaskSucceeded();
        assertThat(placement.ended()).hasSize(1).containsExactlyElementsOf(placement.started());
    }

    @Test
    void aFailedStartReleasesTheHostShareLeaseItTook(@TempDir Path temp)
    {
        Path leases = temp.resolve("leases");
        // 2 cores of an 8-CPU host: the executor leases a chiplet for its share before its placement is made.
        FakePluginContext context = new FakePluginContext(Map.of("spark.executor.cores", "2", "spark.chiplet.leaseDir", leases.toString(),
                "spark.chiplet.measure.enabled", "false"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = new ChipletExecutorPlugin(settings -> TWO_CHIPLETS, placementContext -> {
            throw new IllegalStateException("no placement today");
        }, currentTask::get);
        plugin.init(context, Map.of());

        // Switched off, and the lease is free again: this JVM can lease chiplet 0 itself (a lease it still held would
        // make it fall back to a split without a lease).
        runTask(plugin, new TaskPlacement.TaskIdentity(0, 0, 1), true);
        assertThat(context.metricRegistry().getMetrics()).isEmpty();
        try (ExecutorChiplets again = ExecutorChiplets.claim(TWO_CHIPLETS, 2, "1", leases, LeaseCoordinator.NONE)) {
            assertThat(again.description()).startsWith("leased chiplet 0 (CPUs 0-3): exclusive");
        }
        plugin.shutdown();
    }

    /**
     * YARN hands each container a temporary directory of its own: executors whose lease directories are not one
     * directory each leased chiplet 0. The driver's ledger keeps them apart and warns once.
     */
    @Test
    void executorsOfOneHostWithPrivateLeaseDirectoriesTakeDistinctChipletsThroughTheDriver(@TempDir Path temp)
    {
        ChipletDriverPlugin driver = new ChipletDriverPlugin();
        Function<Object, Object> toDriver = decoded -> decoded instanceof LeaseClaim claim ? driver.receive(PluginMessages.encode(claim)) : SpreadHints.NONE;
        List<ChipletExecutorPlugin> executors = new ArrayList<>();
        List<PlacementContext> contexts = new ArrayList<>();
        try {
            for (String id : List.of("1", "2")) {
                FakePluginContext context = new FakePluginContext(id, Map.of("spark.executor.cores", "4",
                        "spark.chiplet.leaseDir", temp.resolve("container_" + id + "/tmp/chiplet-leases").toString(), "spark.chiplet.measure.enabled", "false"), toDriver);
                ChipletExecutorPlugin executor = new ChipletExecutorPlugin(settings -> TWO_CHIPLETS, placementContext -> {
                    contexts.add(placementContext);
                    return new RecordingTaskPlacement(2);
                }, currentTask::get);
                executor.init(context, Map.of());
                executors.add(executor);
            }
            assertThat(contexts).extracting(placementContext -> placementContext.topology().allowed().toList()).containsExactly("0-3", "4-7");
        }
        finally {
            executors.forEach(ChipletExecutorPlugin::shutdown);
        }
    }

    @Test
    void switchedOffByTheDriverDoesNothing()
    {
        FakePluginContext context = new FakePluginContext(Map.of("spark.chiplet.policy", "fastest"), message -> SpreadHints.NONE);
        ChipletExecutorPlugin plugin = plugin(settings -> {
            throw new AssertionError("must not read the machine");
        });
        plugin.init(context, Map.of(ChipletDriverPlugin.DISABLED_BY_DRIVER, "bad policy"));
        runTask(plugin, new TaskPlacement.TaskIdentity(0, 0, 1), true);

        assertThat(context.asked()).isEmpty();
        assertThat(placement.started()).isEmpty();
        assertThat(context.metricRegistry().getMetrics()).isEmpty();
    }

    @Test
    void unreadableMachineOrSilentDriverFailOpen()
    {
        ChipletExecutorPlugin broken = plugin(settings -> {
            throw new IllegalStateException("no sysfs");
        });
        broken.init(new FakePluginContext(NOT_MEASURING, message -> SpreadHints.NONE), Map.of());
        runTask(broken, new TaskPlacement.TaskIdentity(0, 0, 1), true);
        assertThat(placement.started()).isEmpty();

        // A driver that cannot answer costs the partition sizing, not the placement.
        ChipletExecutorPlugin orphan = plugin(settings -> TWO_CHIPLETS);
        orphan.init(new FakePluginContext(NOT_MEASURING, message -> {
            throw new IllegalStateException("no driver endpoint");
        }), Map.of());
        runTask(orphan, new TaskPlacement.TaskIdentity(0, 0, 1), true);
        assertThat(placement.started()).hasSize(1);
    }

    private ChipletExecutorPlugin plugin(TopologySource source)
    {
        return new ChipletExecutorPlugin(source, context -> placement, currentTask::get);
    }

    private void runTask(ChipletExecutorPlugin plugin, TaskPlacement.TaskIdentity task, boolean succeeds)
    {
        currentTask.set(task);
        plugin.onTaskStart();
        if (succeeds) {
            plugin.onTaskSucceeded();
        }
        else {
            plugin.onTaskFailed(null);
        }
    }
}
