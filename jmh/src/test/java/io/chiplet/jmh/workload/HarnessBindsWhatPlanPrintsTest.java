package io.chiplet.jmh.workload;

import io.chiplet.cli.PlanRun;
import io.chiplet.cli.PlanRun.PlannedWorker;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.placement.Policy;
import io.chiplet.placement.WorkerPlacement;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The harness binds what {@code chiplet plan} prints: on every bundled sysfs snapshot root, for every policy and for
 * the harness's default worker count and one more than the usable chiplets, each worker thread of a
 * {@link PlacedWorkers} (the workload benchmarks' trial) is handed, through a recording binder, exactly the CPUs,
 * chiplet and memory node {@code chiplet plan --fs-root ROOT --policy P --workers N --format json} prints for it (no
 * CPUs under {@code wim}), and where {@code plan} refuses a machine the harness refuses it too.
 */
class HarnessBindsWhatPlanPrintsTest
{
    static List<String> snapshots()
            throws IOException, URISyntaxException
    {
        Path folder = Path.of(Objects.requireNonNull(HarnessBindsWhatPlanPrintsTest.class.getResource("/snapshots"), "/snapshots").toURI());
        try (Stream<Path> files = Files.list(folder)) {
            List<String> names = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".tar.bz2"))
                    .map(name -> name.substring(0, name.length() - ".tar.bz2".length()))
                    .sorted()
                    .toList();
            assertThat(names).as("bundled snapshots").hasSizeGreaterThan(20).contains(Snapshots.TWO_CPUS_TWO_CHIPLETS, "2xepyc7763-nps4");
            return names;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("snapshots")
    void everyWorkerOfTheHarnessIsBoundToWhatPlanPrints(String snapshot, @TempDir Path temp)
    {
        Path root = Snapshots.unpack(snapshot, temp);
        Topology topology = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        int compared = 0;
        for (Policy policy : Policy.values()) {
            for (int workers : workerCounts(topology)) {
                String[] args = {"--fs-root", root.toString(), "--policy", policy.cliName(), "--workers", Integer.toString(workers)};
                List<PlannedWorker> planned;
                try {
                    planned = PlanRun.workers(args);
                }
                catch (AssertionError refused) {
                    assertThatThrownBy(() -> BenchWiring.placement().place(topology, policy.cliName(), workers))
                            .as("%s %s x%d: plan refused (%s), so must the harness", snapshot, policy, workers, refused.getMessage())
                            .isInstanceOf(IllegalArgumentException.class);
                    continue;
                }
                List<WorkerPlacement> bound = bindThroughTheHarness(topology, policy, workers);
                assertThat(bound).as("%s %s x%d: workers bound", snapshot, policy, workers).hasSize(planned.size());
                for (int worker = 0; worker < workers; worker++) {
                    WorkerPlacement target = bound.get(worker);
                    PlannedWorker plan = planned.get(worker);
                    String what = "%s %s x%d worker %d".formatted(snapshot, policy, workers, worker);
                    assertThat(plan.worker()).as(what).isEqualTo(worker);
                    assertThat(target.cpusToBind()).as("%s: CPUs", what).isEqualTo(plan.cpus());
                    assertThat(target.memoryNodeToBind()).as("%s: memory node", what).isEqualTo(plan.memoryNode());
                    assertThat(target.chiplet()).as("%s: chiplet", what).isEqualTo(plan.chiplet());
                    if (policy == Policy.WIM) {
                        assertThat(target.bindsAnything()).as("%s: wim binds nothing", what).isFalse();
                    }
                    compared++;
                }
            }
        }
        assertThat(compared).as("%s: workers compared", snapshot).isPositive();
    }

    /** The harness's default (the smallest chiplet's CPUs) and more workers than there are usable chiplets. */
    private static List<Integer> workerCounts(Topology topology)
    {
        int defaultWorkers;
        try {
            defaultWorkers = WorkloadTrial.defaultWorkers(topology);
        }
        catch (IllegalArgumentException e) {
            // no usable chiplet: plan refuses every count; one is enough to show the harness does too
            return List.of(1);
        }
        int beyondChiplets = topology.chiplets().size() + 1;
        return defaultWorkers == beyondChiplets ? List.of(defaultWorkers) : List.of(defaultWorkers, beyondChiplets);
    }

    /** What each worker thread of a trial is handed by the harness, in worker order (read on the worker's own thread). */
    private static List<WorkerPlacement> bindThroughTheHarness(Topology topology, Policy policy, int workers)
    {
        Map<String, WorkerPlacement> boundBy = new ConcurrentHashMap<>();
        Map<Integer, String> ranOn = new ConcurrentHashMap<>();
        WorkerBinder recording = target -> boundBy.put(Thread.currentThread().getName(), target);
        try (PlacedWorkers trial = new PlacedWorkers(BenchWiring.placement().place(topology, policy.cliName(), workers).targets(), recording)) {
            trial.run(worker -> {
                ranOn.put(worker, Thread.currentThread().getName());
                return 0;
            });
        }
        List<WorkerPlacement> bound = new ArrayList<>();
        for (int worker = 0; worker < workers; worker++) {
            bound.add(boundBy.get(ranOn.get(worker)));
        }
        return bound;
    }
}
