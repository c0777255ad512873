package io.chiplet.measure;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * The independent simulation behind {@code docs/measurement-proof.md} (issue 32): a generator written without the
 * estimator's model, by a different hand than the estimator's, that schedules work in time on hosts and lets the
 * machine, not a formula of the estimator, decide each unit's time.
 *
 * <p>What it simulates, for both designs:
 * <ul>
 *   <li><b>Heavy tails</b>: each unit's work is lognormal (sigma 1), its time a fixed cost plus its work at its stage's
 *   (or shape's) rate, times lognormal noise (sigma 0.3); 5 % of units are stragglers, 2 to 20 times slower (uniform).</li>
 *   <li><b>Size-dependent effects</b>: placement multiplies a unit's time by {@code g * (work / median)^-beta}:
 *   with {@code beta > 0} it helps big units and hurts small ones.</li>
 *   <li><b>Shared resources in time</b>: every host's window has its own load (lognormal, sigma 0.1) and all hosts
 *   share a cluster-wide load per time window (sigma 0.1: shared storage and network), so units of different clusters
 *   running at the same time are not independent; placement's state of a host carries over a switch (caches and pages
 *   keep the previous arm's layout, relaxing with a time constant), so units just after a switch get a mix of both arms.</li>
 *   <li><b>Warm-up</b>: early units are slower (twice as slow at the start, relaxing over the run).</li>
 *   <li>Arms drawn by the plugin's own {@link SwitchbackWindows}, the guard and control share by {@link Measurement},
 *   as an engine would call them while the run goes on.</li>
 * </ul>
 *
 * <p><b>The truth</b> is the job-level time ratio computed from every unit's two potential times under the
 * circumstances it ran in (its host's load, the cluster's load, warm-up): the summed placed time of all the work done
 * over its summed control time, left-out units included. Its inverse is the job's speed-up.
 *
 * <p><b>Spark's design</b>: stages of tasks run one after another on {@code hosts} hosts of {@code slots} slots each
 * (a task starts on the slot free first); every host switches between placed and control windows on its own order,
 * the windows grown by the plugin's rule ({@link WindowLength}, {@link WindowSteps}) from the finished tasks' run
 * times; a task's arm is its host's (long) window's, its cluster the host and window. A task that spans windows of both arms, or
 * starts within the washout margin after its host switched arm, is left out (the rule is fixed before the run).
 * <b>Trino's design</b>: the whole cluster switches; in every window each of {@code shapes} query shapes runs one to
 * three queries at random times; a query that spans a switch is left out; each shape's queries of one window are one
 * observation (their totals), its cluster the window.
 *
 * @param beta the size dependence of placement's effect (0: the same for every unit)
 * @param gain {@code g}: placement's time factor at the median unit (1: none)
 */
record ScheduledCluster(double gain, double beta, SpanRule spanRule, boolean feedLeftOut, boolean windowRule, int stages)
{
    /** What Spark's design does with a task that ran in windows of both arms of its host. */
    enum SpanRule
    {
        /** Left out and counted (the rule of Trino's design too). */
        LEAVE_OUT,
        /** Compared in the arm of the window it started in (intent to treat: it ran partly in the other arm). */
        START_WINDOW
    }

    ScheduledCluster(double gain, double beta)
    {
        this(gain, beta, SpanRule.LEAVE_OUT, true, true, STAGES);
    }

    ScheduledCluster withSpanRule(SpanRule rule)
    {
        return new ScheduledCluster(gain, beta, rule, feedLeftOut, windowRule, stages);
    }

    /**
     * Whether the estimator is told of the left-out tasks (as the Spark plugin does, so that it post-stratifies by size
     * class), or not (as before issue 32's fix: the compared tasks alone).
     */
    ScheduledCluster withLeftOutFed(boolean fed)
    {
        return new ScheduledCluster(gain, beta, spanRule, fed, windowRule, stages);
    }

    /**
     * With the window rule ({@link WindowLength#of}, as the Spark plugin runs) or the configured 4 s window throughout
     * (before issue 32's window rule), over {@code stages} stages.
     */
    ScheduledCluster withWindowRule(boolean rule, int stageCount)
    {
        return new ScheduledCluster(gain, beta, spanRule, feedLeftOut, rule, stageCount);
    }

    static final double NOISE_SIGMA = 0.3;
    static final double WORK_SIGMA = 1.0;
    static final double STRAGGLER_SHARE = 0.05;
    static final double HOST_LOAD_SIGMA = 0.1;
    static final double CLUSTER_LOAD_SIGMA = 0.1;
    static final double WARMUP = 1.0;

    // Spark: 4 hosts of 4 slots, 6 stages of 60 to 240 tasks, configured windows of 4 s (grown by the window rule),
    // washout 0.25 s, carry-over 0.1 s.
    static final int HOSTS = 4;
    static final int SLOTS = 4;
    static final int STAGES = 6;
    static final long SPARK_WINDOW_MILLIS = 4000;
    static final double SPARK_WASHOUT = 0.25;
    static final double SPARK_CARRY_OVER = 0.1;
    static final double SPARK_WARMUP_SECONDS = 30;

    // Trino: 5 shapes, 150 windows of 10 s, queries of about a second, carry-over 0.2 s; windows' margin 0.1 s.
    static final int SHAPES = 5;
    static final int TRINO_WINDOWS = 150;
    static final long TRINO_WINDOW_MILLIS = 10_000;
    static final double TRINO_CARRY_OVER = 0.2;
    static final double TRINO_MARGIN = 0.1;
    static final double TRINO_WARMUP_SECONDS = 300;

    static final double SHARE = 0.5;

    static ScheduledCluster noEffect()
    {
        return new ScheduledCluster(1, 0);
    }

    /** One run's outcome: the measurement as the engine left it and the truth. */
    record Outcome(Measurement measurement, double trueTimeRatio, long unitsLeftOut, double comparedTimeRatio, int windowExponent, double seconds)
    {
        /** Whether the interval holds the job's true time ratio. */
        boolean covers()
        {
            RatioEstimate ratio = measurement.estimate().timeRatio().orElseThrow();
            return ratio.low() <= trueTimeRatio && trueTimeRatio <= ratio.high();
        }

        /** Whether the interval found placement faster (below 1). */
        boolean foundFaster()
        {
            return measurement.estimate().placedFaster();
        }
    }

    /** A plan with a fixed control share of 0.5 (switchback pairs), the given guard. */
    static MeasurementPlan plan(GuardMode guard, long seed)
    {
        return new MeasurementPlan(true, new ControlFraction(SHARE, SHARE, 0.02), guard, seed, StratifiedArmEstimator.DEFAULT_MIN_UNITS_PER_ARM);
    }

    private double effect(double relativeWork)
    {
        return gain * Math.pow(relativeWork, -beta);
    }

    private static double straggler(SplittableRandom random)
    {
        return random.nextDouble() < STRAGGLER_SHARE ? 2 + 18 * random.nextDouble() : 1;
    }

    /** Placement's state of a host at {@code t}: 1 placed, 0 control, in between just after a switch (carry-over). */
    private static double placedState(Arm now, Arm before, double sinceSwitch, double carryOver)
    {
        double target = now == Arm.PLACED ? 1 : 0;
        double previous = before == Arm.PLACED ? 1 : 0;
        return target + (previous - target) * Math.exp(-sinceSwitch / carryOver);
    }

    /** Load factors drawn lazily per key, so that they do not depend on the order they are first asked for. */
    private static final class Loads
    {
        private final long seed;
        private final double sigma;
        private final Map<Long, Double> drawn = new HashMap<>();

        Loads(long seed, double sigma)
        {
            this.seed = seed;
            this.sigma = sigma;
        }

        double of(long key)
        {
            return drawn.computeIfAbsent(key, k -> Math.exp(sigma * new SplittableRandom(seed * 1_000_003L + k).nextGaussian()));
        }
    }

    /** Spark's design: switchback per host, clusters host and (long) window. */
    Outcome spark(MeasurementPlan plan, long seed)
    {
        SplittableRandom random = new SplittableRandom(seed);
        Measurement measurement = new Measurement(plan);
        // The plugin's own schedule and window rule: the window grows from the finished tasks' run times, from the next
        // boundary of the longer window on (as the driver decides and the executors apply).
        SwitchbackSchedule schedule = new SwitchbackSchedule(new SwitchbackWindows(plan.assignment(), SPARK_WINDOW_MILLIS), (long) (SPARK_WASHOUT * 1000));
        WindowLength rule = windowRule ? WindowLength.of(SPARK_WINDOW_MILLIS) : WindowLength.fixed(SPARK_WINDOW_MILLIS);
        WindowSteps steps = WindowSteps.BASE;
        PriorityQueue<double[]> running = new PriorityQueue<>((x, y) -> Double.compare(x[0], y[0]));
        List<Double> finished = new ArrayList<>();
        int decidedAt = 0;
        Loads hostLoads = new Loads(random.nextLong(), HOST_LOAD_SIGMA);
        Loads clusterLoads = new Loads(random.nextLong(), CLUSTER_LOAD_SIGMA);
        // Directives by the window they were decided in: a host's window follows the directive in force at its start.
        Directive directive = measurement.update().directive();
        double placedTotal = 0;
        double controlTotal = 0;
        double placedKept = 0;
        double controlKept = 0;
        long leftOut = 0;
        int recorded = 0;
        double[] free = new double[HOSTS * SLOTS];
        double stageStart = 0;
        for (int stage = 0; stage < stages; stage++) {
            int tasks = 60 + random.nextInt(181);
            double rate = Math.exp(0.5 * random.nextGaussian());
            PriorityQueue<Integer> slots = new PriorityQueue<>((x, y) -> Double.compare(free[x], free[y]));
            for (int slot = 0; slot < free.length; slot++) {
                free[slot] = Math.max(free[slot], stageStart);
                slots.add(slot);
            }
            double stageEnd = stageStart;
            for (int task = 0; task < tasks; task++) {
                int slot = slots.poll();
                int host = slot / SLOTS;
                double start = free[slot];
                long startMillis = (long) (start * 1000);
                while (!running.isEmpty() && running.peek()[0] <= start) {
                    finished.add(running.poll()[1]);
                }
                if (finished.size() >= decidedAt + 25) {
                    // The driver's decision from the run times it has, in force from the next boundary of the new length.
                    decidedAt = finished.size();
                    int exponent = rule.exponent(steps.latestExponent(), finished.stream().mapToDouble(Double::doubleValue).toArray());
                    steps = steps.grow(exponent, schedule.windowAt(startMillis) + 1);
                }
                double relativeWork = Math.exp(WORK_SIGMA * random.nextGaussian());
                double work = 1e6 * relativeWork;
                double base = (0.05 + 0.3 * relativeWork * rate) * Math.exp(NOISE_SIGMA * random.nextGaussian()) * straggler(random);
                // Loads follow the generator's own 4 s time windows, whatever the design's windows.
                long loadWindow = schedule.windowAt(startMillis);
                double circumstances = hostLoads.of(host * 1_000_000L + loadWindow) * clusterLoads.of(loadWindow)
                        * (1 + WARMUP * Math.exp(-start / SPARK_WARMUP_SECONDS));
                Directive inForce = directive;
                LongFunction<Directive> directiveOfWindow = w -> inForce;
                SwitchbackSchedule.Start drawn = schedule.start(host, startMillis, directiveOfWindow, steps);
                long window = drawn.window();
                Arm arm = drawn.arm().arm();
                Arm before = window > 0 ? schedule.drawn(host, steps.windowOf(window - 1), directiveOfWindow, steps).arm() : arm;
                double sinceSwitch = start - window * SPARK_WINDOW_MILLIS / 1000.0;
                double control = base * circumstances;
                double placed = control * effect(relativeWork);
                double state = placedState(arm, before, sinceSwitch, SPARK_CARRY_OVER);
                double seconds = control * Math.pow(effect(relativeWork), state);
                long nextWindow = steps.nextWindow(window);
                double windowEnd = nextWindow * SPARK_WINDOW_MILLIS / 1000.0;
                if (start + seconds > windowEnd) {
                    // The rest of its work runs in the next window, at that window's arm (one switch at most).
                    Arm next = schedule.drawn(host, nextWindow, directiveOfWindow, steps).arm();
                    double done = (windowEnd - start) / seconds;
                    seconds = (windowEnd - start) + (1 - done) * control * (next == Arm.PLACED ? effect(relativeWork) : 1);
                }
                placedTotal += placed;
                controlTotal += control;
                double end = start + seconds;
                free[slot] = end;
                slots.add(slot);
                running.add(new double[] {end, seconds * 1000});
                stageEnd = Math.max(stageEnd, end);
                long endMillis = (long) (end * 1000);
                Optional<SwitchbackSchedule.Exclusion> exclusion = schedule.exclusion(host, drawn, endMillis, directiveOfWindow, steps);
                boolean spans = spanRule == SpanRule.LEAVE_OUT && exclusion.isPresent() && exclusion.get() == SwitchbackSchedule.Exclusion.SPANNING;
                if (spans || drawn.inWashout()) {
                    leftOut++;
                    if (feedLeftOut) {
                        // As the Spark plugin feeds it: the stratum, the time and what the task read, not its arm.
                        measurement.recordLeftOut(new LeftOutUnit("stage " + stage, seconds, (long) work, (long) (work / 100)));
                    }
                    continue;
                }
                placedKept += placed;
                controlKept += control;
                measurement.record(new UnitObservation("stage " + stage, arm, seconds, seconds, 0, (long) work, (long) (work / 100),
                        "host " + host + " window " + window));
                if (++recorded % 50 == 0 && plan.guard() == GuardMode.AUTO) {
                    directive = measurement.update().directive();
                }
            }
            stageStart = stageEnd;
        }
        measurement.update();
        return new Outcome(measurement, placedTotal / controlTotal, leftOut, placedKept / controlKept, steps.latestExponent(), stageStart);
    }

    /** Trino's design: the whole cluster switches; each shape's queries of a window are one observation, cluster the window. */
    Outcome trino(MeasurementPlan plan, long seed)
    {
        SplittableRandom random = new SplittableRandom(seed);
        Measurement measurement = new Measurement(plan);
        SwitchbackWindows windows = new SwitchbackWindows(plan.assignment(), TRINO_WINDOW_MILLIS);
        double[] shapeWork = new double[SHAPES];
        double[] shapeRate = new double[SHAPES];
        for (int shape = 0; shape < SHAPES; shape++) {
            shapeWork[shape] = Math.exp(WORK_SIGMA * random.nextGaussian());
            shapeRate[shape] = Math.exp(0.5 * random.nextGaussian());
        }
        Directive directive = measurement.update().directive();
        double placedTotal = 0;
        double controlTotal = 0;
        double placedKept = 0;
        double controlKept = 0;
        long leftOut = 0;
        double windowSeconds = TRINO_WINDOW_MILLIS / 1000.0;
        long first = 1_000_000;
        for (long window = first; window < first + TRINO_WINDOWS; window++) {
            Arm arm = directive.placing() ? windows.armAt(0, window * TRINO_WINDOW_MILLIS, directive.controlShare()) : Arm.CONTROL;
            Arm before = directive.placing() ? windows.armAt(0, window * TRINO_WINDOW_MILLIS - 1, directive.controlShare()) : Arm.CONTROL;
            Arm after = directive.placing() ? windows.armAt(0, (window + 1) * TRINO_WINDOW_MILLIS, directive.controlShare()) : Arm.CONTROL;
            double load = Math.exp(CLUSTER_LOAD_SIGMA * random.nextGaussian()) * Math.exp(HOST_LOAD_SIGMA * random.nextGaussian());
            List<UnitObservation> observations = new ArrayList<>();
            for (int shape = 0; shape < SHAPES; shape++) {
                int queries = 1 + random.nextInt(3);
                double time = 0;
                double read = 0;
                int kept = 0;
                for (int query = 0; query < queries; query++) {
                    double relativeWork = shapeWork[shape] * Math.exp(0.3 * random.nextGaussian());
                    double startOffset = windowSeconds * random.nextDouble();
                    double elapsed = (window - first) * windowSeconds + startOffset;
                    double control = (0.02 + 0.2 * relativeWork * shapeRate[shape]) * Math.exp(NOISE_SIGMA * random.nextGaussian()) * straggler(random) * load
                            * (1 + WARMUP * Math.exp(-elapsed / TRINO_WARMUP_SECONDS));
                    double placed = control * effect(relativeWork);
                    double cpu = control * Math.pow(effect(relativeWork), placedState(arm, before, startOffset, TRINO_CARRY_OVER));
                    placedTotal += placed;
                    controlTotal += control;
                    // Queries run on many threads: their wall time is some of their CPU time.
                    double end = startOffset + cpu / 4;
                    boolean spans = (startOffset < TRINO_MARGIN && before != arm) || (end + TRINO_MARGIN > windowSeconds && after != arm)
                            || end > 2 * windowSeconds;
                    if (spans) {
                        leftOut++;
                        continue;
                    }
                    placedKept += placed;
                    controlKept += control;
                    time += cpu;
                    read += 1e6 * relativeWork;
                    kept++;
                }
                if (kept > 0) {
                    observations.add(new UnitObservation("shape " + shape, arm, time, time, 0, (long) read, (long) (read / 100), "window " + window));
                }
            }
            observations.forEach(measurement::record);
            if (plan.guard() == GuardMode.AUTO) {
                directive = measurement.update().directive();
            }
        }
        measurement.update();
        return new Outcome(measurement, placedTotal / controlTotal, leftOut, placedKept / controlKept, 0, TRINO_WINDOWS * windowSeconds);
    }
}
