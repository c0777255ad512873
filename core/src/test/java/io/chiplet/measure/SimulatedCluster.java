package io.chiplet.measure;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

/**
 * A simulated engine run for the proofs of the job's speed-up, deliberately not built from the estimator's model:
 * time is not proportional to work (a fixed cost per unit), work is lognormal, 5 % of units are stragglers 2-20x
 * slower, placement's effect depends on a unit's size (it may gain on big units and lose on small ones), windows share
 * a load (a lognormal factor for every unit of the window: the machine's busy minute, more so with stragglers in it)
 * that also strengthens or weakens the effect (shared caches and memory bandwidth matter more when busy), and the
 * first units run slower (a JVM warming up). Arms are drawn per window (a switchback design) by
 * {@link ArmAssignment}, at the share the {@link Measurement}'s directive asks for.
 *
 * <p>Two layouts: {@link Layout#SPARK_HOSTS}, stages run one after another over {@code hosts} hosts, each host
 * switching on its own windows of {@code unitsPerWindow} tasks, a task's cluster its host and window; and
 * {@link Layout#TRINO_SHAPES}, {@code strata} query shapes running at once in every window of the whole cluster, one
 * observation per shape and window (the window's totals), its cluster the window.
 *
 * <p>The truth is the job-level estimand computed from every unit's two potential times: the summed control time of
 * all the work done over its summed placed time.
 *
 * @param effect a unit's placed time over its control time, given its work relative to the median (1: median)
 * @param loadCoupling how much a window's load strengthens the effect: the effect's log is scaled by
 *         {@code 1 + loadCoupling * (load - 1)}
 */
record SimulatedCluster(Layout layout, int strata, int minUnits, int maxUnits, int hosts, int unitsPerWindow, double workSigma, double noise,
        double stragglerShare, double windowLoadSigma, double warmup, DoubleUnaryOperator effect, double loadCoupling)
{
    enum Layout
    {
        SPARK_HOSTS, TRINO_SHAPES
    }

    private static final double MEDIAN_WORK = 1e6;

    /** Six stages of 80-400 tasks on four hosts, windows of 6 tasks, heavy tails, shared load, warm-up; no effect. */
    static SimulatedCluster spark()
    {
        return new SimulatedCluster(Layout.SPARK_HOSTS, 6, 80, 400, 4, 6, 1.0, 0.3, 0.05, 0.15, 2.0, relative -> 1, 0.5);
    }

    /** Ten query shapes sharing every window, 1-3 queries of each a window (one observation each), 200 windows. */
    static SimulatedCluster trino()
    {
        return new SimulatedCluster(Layout.TRINO_SHAPES, 10, 200, 200, 1, 2, 1.0, 0.2, 0.05, 0.15, 2.0, relative -> 1, 0.5);
    }

    SimulatedCluster withEffect(DoubleUnaryOperator effect)
    {
        return new SimulatedCluster(layout, strata, minUnits, maxUnits, hosts, unitsPerWindow, workSigma, noise, stragglerShare, windowLoadSigma, warmup, effect, loadCoupling);
    }

    SimulatedCluster withWorkSigma(double sigma)
    {
        return new SimulatedCluster(layout, strata, minUnits, maxUnits, hosts, unitsPerWindow, sigma, noise, stragglerShare, windowLoadSigma, warmup, effect, loadCoupling);
    }

    SimulatedCluster withStragglers(double share)
    {
        return new SimulatedCluster(layout, strata, minUnits, maxUnits, hosts, unitsPerWindow, workSigma, noise, share, windowLoadSigma, warmup, effect, loadCoupling);
    }

    /** Each unit its own cluster, arms drawn per unit within its stratum (Spark's task mode). */
    SimulatedCluster perUnit()
    {
        return new SimulatedCluster(layout, strata, minUnits, maxUnits, hosts, 1, workSigma, noise, stragglerShare, windowLoadSigma, warmup, effect, loadCoupling);
    }

    /** What a run measured, and its truth. */
    record Run(Measurement measurement, double trueSpeedUp) {}

    Run run(MeasurementPlan plan, long seed)
    {
        Measurement measurement = new Measurement(plan);
        ArmAssignment assignment = plan.assignment();
        SplittableRandom random = new SplittableRandom(seed);
        Directive directive = measurement.update().directive();
        double controlTime = 0;
        double placedTime = 0;
        long done = 0;
        if (layout == Layout.SPARK_HOSTS) {
            long[] window = new long[hosts];
            int[] inWindow = new int[hosts];
            double[] load = new double[hosts];
            DrawnArm[] arm = new DrawnArm[hosts];
            for (int host = 0; host < hosts; host++) {
                load[host] = load(random, 0);
                arm[host] = drawWindow(directive, assignment, host, 0);
            }
            int windowsSinceUpdate = 0;
            for (int stage = 0; stage < strata; stage++) {
                int tasks = minUnits + random.nextInt(maxUnits - minUnits + 1);
                double rate = Math.exp(random.nextGaussian());
                for (int task = 0; task < tasks; task++) {
                    int host = task % hosts;
                    if (inWindow[host] == unitsPerWindow) {
                        inWindow[host] = 0;
                        window[host]++;
                        if (++windowsSinceUpdate >= Math.max(6 * hosts, 200 / unitsPerWindow)) {
                            directive = measurement.update().directive();
                            windowsSinceUpdate = 0;
                        }
                        arm[host] = drawWindow(directive, assignment, host, window[host]);
                        load[host] = load(random, 0);
                    }
                    // With one unit a window (task mode) the draw is per task within its stage, as ArmAssignment's blocks are.
                    DrawnArm drawn = unitsPerWindow == 1 ? directive.draw(assignment, stage, task) : arm[host];
                    inWindow[host]++;
                    double work = MEDIAN_WORK * Math.exp(workSigma * random.nextGaussian());
                    boolean straggler = random.nextDouble() < stragglerShare;
                    if (straggler) {
                        // A straggler makes its window busier for the others too.
                        load[host] *= 1.1;
                    }
                    double control = rate * (0.3 + work / MEDIAN_WORK) * Math.exp(noise * random.nextGaussian()) * (straggler ? Math.exp(Math.log(2) + random.nextDouble() * Math.log(10)) : 1)
                            * load[host] * warm(done);
                    double placed = control * coupled(effect.applyAsDouble(work / MEDIAN_WORK), load[host]);
                    controlTime += control;
                    placedTime += placed;
                    done++;
                    double seconds = drawn.arm() == Arm.PLACED ? placed : control;
                    String cluster = unitsPerWindow == 1 ? "" : "host " + host + " window " + window[host];
                    measurement.record(new UnitObservation(drawn.stratum("stage " + stage), drawn.arm(), seconds, seconds, 0, Math.round(work), Math.round(work / 100), cluster));
                }
            }
        }
        else {
            double[] rates = new double[strata];
            for (int shape = 0; shape < strata; shape++) {
                rates[shape] = Math.exp(random.nextGaussian());
            }
            int windows = minUnits;
            for (long window = 0; window < windows; window++) {
                DrawnArm drawn = drawWindow(directive, assignment, 0, window);
                double load = load(random, 0);
                for (int shape = 0; shape < strata; shape++) {
                    int queries = 1 + random.nextInt(unitsPerWindow + 1);
                    double seconds = 0;
                    double bytes = 0;
                    for (int query = 0; query < queries; query++) {
                        double work = MEDIAN_WORK * Math.exp(workSigma * random.nextGaussian());
                        boolean straggler = random.nextDouble() < stragglerShare;
                        double control = rates[shape] * (0.3 + work / MEDIAN_WORK) * Math.exp(noise * random.nextGaussian())
                                * (straggler ? Math.exp(Math.log(2) + random.nextDouble() * Math.log(10)) : 1) * load * warm(done);
                        double placed = control * coupled(effect.applyAsDouble(work / MEDIAN_WORK), load);
                        controlTime += control;
                        placedTime += placed;
                        done++;
                        seconds += drawn.arm() == Arm.PLACED ? placed : control;
                        bytes += work;
                    }
                    measurement.record(new UnitObservation(drawn.stratum("shape " + shape), drawn.arm(), seconds, seconds, 0, Math.round(bytes), Math.round(bytes / 100),
                            "window " + window));
                }
                if (window % 10 == 9) {
                    directive = measurement.update().directive();
                }
            }
        }
        measurement.update();
        return new Run(measurement, controlTime / placedTime);
    }

    private static DrawnArm drawWindow(Directive directive, ArmAssignment assignment, int host, long window)
    {
        return directive.draw(assignment, 1_000_000L + host, window);
    }

    private double load(SplittableRandom random, double unused)
    {
        return Math.exp(windowLoadSigma * random.nextGaussian());
    }

    private double warm(long done)
    {
        return 1 + warmup * Math.exp(-done / 300.0);
    }

    private double coupled(double effect, double load)
    {
        return Math.exp(Math.log(effect) * (1 + loadCoupling * (load - 1)));
    }

    /**
     * The job-level speed-up of {@code effect} in this layout's population, by Monte Carlo over {@code units} units of
     * one stratum at rate 1 (the truth of a run scatters around it): for calibrating a size-dependent effect.
     */
    double populationSpeedUp(DoubleUnaryOperator effect, int units, long seed)
    {
        SplittableRandom random = new SplittableRandom(seed);
        double control = 0;
        double placed = 0;
        for (int i = 0; i < units; i++) {
            double relative = Math.exp(workSigma * random.nextGaussian());
            boolean straggler = random.nextDouble() < stragglerShare;
            double load = Math.exp(windowLoadSigma * random.nextGaussian());
            double time = (0.3 + relative) * Math.exp(noise * random.nextGaussian()) * (straggler ? Math.exp(Math.log(2) + random.nextDouble() * Math.log(10)) : 1) * load;
            control += time;
            placed += time * coupled(effect.applyAsDouble(relative), load);
        }
        return control / placed;
    }
}
