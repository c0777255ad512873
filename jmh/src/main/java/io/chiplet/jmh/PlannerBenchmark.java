package io.chiplet.jmh;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.PlacementRequest;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SpreadController;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.placement.WorkerPlacements;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The placement engine's speed targets: the finished targets for 1024 workers on a 512-CPU machine (what
 * {@code chiplet plan}, {@code exec}, the plugins and the harness call: plan, pin unit, memory node) under 1 ms, one
 * adaptive step per worker under 1 microsecond without allocation (check with {@code -prof gc}: gc.alloc.rate.norm
 * 0 B/op), and the adaptive loop's relocation of all workers as the plugins run it, through the same public targets.
 *
 * <pre>java -jar jmh/target/benchmarks.jar PlannerBenchmark -prof gc</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PlannerBenchmark
{
    private static final int WORKERS = 1024;
    private static final long INTERVAL_NANOS = SpreadController.Settings.CHARM_INTERVAL_NANOS;

    @State(Scope.Benchmark)
    public static class Planning
    {
        @Param({"wicp-mixed", "wicp-local", "wic", "win", "auto", "adaptive"})
        public String policy;

        PlacementDomain share;
        PlacementRequest request;
        MemoryBinding memory;

        @Setup
        public void setUp()
        {
            Topology topology = SyntheticTopologies.cpus512();
            share = PlacementDomain.of(topology);
            request = PlacementRequest.of(topology, Policy.parse(policy), WORKERS).withWorkingSet(200L << 20);
            memory = MemoryBinding.of(topology, true, MemoryKind.DRAM);
        }
    }

    @State(Scope.Thread)
    public static class Adaptive
    {
        SpreadController controller;
        WorkerPlacements adaptiveTargets;
        int[] spreads = new int[WORKERS];
        long[] fills = new long[WORKERS];
        int worker;

        @Setup(Level.Trial)
        public void setUp()
        {
            Topology topology = SyntheticTopologies.cpus512();
            // the policy whose placement adapts at run time (CHARM's), found by what it means
            Policy adaptive = Arrays.stream(Policy.values()).filter(Policy::adaptsAtRunTime).findFirst().orElseThrow();
            adaptiveTargets = PlacementPlanner.targets(PlacementDomain.of(topology), adaptive, WORKERS, MemoryBinding.of(topology, true, MemoryKind.DRAM));
            // A spread spans at most the share's chiplets, as in the plugins' adaptive loop.
            controller = new SpreadController(WORKERS, adaptiveTargets.share().chiplets().size(), SpreadController.Settings.defaults(WORKERS));
            // A mix of starved, settled and idle workers, so every branch of the step runs.
            for (int w = 0; w < WORKERS; w++) {
                fills[w] = switch (w % 3) {
                    case 0 -> 900;
                    case 1 -> 300;
                    default -> 10;
                };
            }
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public WorkerPlacements plan1024Workers(Planning state)
    {
        return PlacementPlanner.targets(state.share, state.request, state.memory);
    }

    /** One worker's Algorithm 1 step (rate scaling, band, confirmation, budget). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public int adaptiveStepPerWorker(Adaptive state)
    {
        int w = state.worker;
        state.worker = w + 1 == WORKERS ? 0 : w + 1;
        if (w == 0) {
            state.controller.beginInterval();
        }
        return state.controller.step(w, state.fills[w], INTERVAL_NANOS);
    }

    /**
     * The adaptive loop's step as the plugins run it: 1024 workers' finished targets for new spreads
     * ({@code WorkerPlacements.withSpreads}: Algorithm 2, then each worker's whole chiplet and memory node). Allocates
     * the new targets; runs once per adaptive interval, not per worker.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public WorkerPlacements targetsWithSpreads1024Workers(Adaptive state)
    {
        state.controller.copySpreads(state.spreads);
        return state.adaptiveTargets.withSpreads(state.spreads);
    }
}
