package io.chiplet.measure;

import java.util.SplittableRandom;

/**
 * A simulated engine run for the measurement's proofs: stages of tasks of lognormally scattered sizes, each task's
 * time its size times its stage's rate times lognormal noise, times the effect injected on its arm. The test-only
 * effect injector is {@code timeRatio}: placed tasks take that factor of a control task's time (0.8: placement 25 %
 * faster). {@code warmup} makes early tasks slower (a JVM warming up). {@code interference} models placed and control work sharing the machine: a control task's time moves by
 * {@code interference * (timeRatio - 1) * placedShare} of the effect too, as its neighbours' placement frees (or
 * takes) shared caches and memory bandwidth; 0 is a clean control, 1 a control that gets the whole effect.
 */
record SimulatedJob(int stages, int minTasks, int maxTasks, double noise, double timeRatio, double interference, double warmup)
{
    static SimulatedJob noEffect()
    {
        return new SimulatedJob(8, 40, 400, 0.3, 1.0, 0, 0);
    }

    SimulatedJob withEffect(double ratio)
    {
        return new SimulatedJob(stages, minTasks, maxTasks, noise, ratio, interference, warmup);
    }

    SimulatedJob withInterference(double share)
    {
        return new SimulatedJob(stages, minTasks, maxTasks, noise, timeRatio, share, warmup);
    }

    /** Early tasks slower, as on a JVM warming up: the first task takes {@code 1 + factor} times a warm one's time. */
    SimulatedJob withWarmup(double factor)
    {
        return new SimulatedJob(stages, minTasks, maxTasks, noise, timeRatio, interference, factor);
    }

    /** Runs the job through {@code measurement} as an engine would: draws each task's arm, records it, updates every 100 tasks. */
    Measurement run(MeasurementPlan plan, long seed)
    {
        Measurement measurement = new Measurement(plan);
        ArmAssignment assignment = plan.assignment();
        SplittableRandom random = new SplittableRandom(seed);
        int done = 0;
        Directive directive = measurement.update().directive();
        for (int stage = 0; stage < stages; stage++) {
            int tasks = minTasks + random.nextInt(maxTasks - minTasks + 1);
            double rate = Math.exp(random.nextGaussian() * 1.5);
            for (int partition = 0; partition < tasks; partition++) {
                DrawnArm drawn = directive.draw(assignment, stage, partition);
                Arm arm = drawn.arm();
                long bytes = (long) (1e6 * Math.exp(random.nextGaussian()));
                double placedShare = directive.placing() ? 1 - directive.controlShare() : 0;
                double factor = arm == Arm.PLACED ? timeRatio : 1 + interference * (timeRatio - 1) * placedShare;
                double seconds = bytes * 1e-7 * rate * Math.exp(random.nextGaussian() * noise) * factor * (1 + warmup * Math.exp(-done / 300.0));
                measurement.record(new UnitObservation(drawn.stratum("stage " + stage), arm, seconds, seconds * 0.9, 0, bytes, bytes / 100));
                if (++done % 100 == 0) {
                    directive = measurement.update().directive();
                }
            }
        }
        measurement.update();
        return measurement;
    }

    /** What the estimate converges to under interference: the effect attenuated by the control's share of it. */
    double expectedEstimate(double controlShare)
    {
        return timeRatio / (1 + interference * (timeRatio - 1) * (1 - controlShare));
    }
}
