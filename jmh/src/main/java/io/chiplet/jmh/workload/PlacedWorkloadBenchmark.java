package io.chiplet.jmh.workload;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What every workload benchmark shares: the placement policy and working-set class it runs under, the trial of
 * workers started for them (each bound to its target from core's planner), and its teardown. A subclass allocates its
 * per-worker data in {@link #prepare()} and runs its kernel through {@link #trial}.
 */
@State(Scope.Benchmark)
public abstract class PlacedWorkloadBenchmark
{
    @Param({"wim", "win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive"})
    public String placement;

    @Param({"below-l3", "between", "beyond"})
    public String workingSet;

    /** 0: as many workers as one chiplet has CPUs. */
    @Param("0")
    public int workers;

    protected WorkloadTrial trial;

    @Setup(Level.Trial)
    public final void startTrial()
    {
        trial = WorkloadTrial.start(placement, workingSet, workers);
        prepare();
    }

    /** Allocates and first-touches each worker's data, on the worker's own thread through {@link #trial}. */
    protected abstract void prepare();

    @TearDown(Level.Trial)
    public final void closeTrial()
    {
        trial.close();
    }
}
