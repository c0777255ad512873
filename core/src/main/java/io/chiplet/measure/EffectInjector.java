package io.chiplet.measure;

/**
 * Test only: an effect of known size, made on purpose, so that a run on a real engine can show that the measurement
 * recovers it. Placed work takes {@code timeRatio} of control work's time: above 1 placed work is stretched by it, below
 * 1 control work by its inverse. Both engines make the effect from this one record, each where its work runs (Spark:
 * a task's completion waits out the stretch; Trino: the rows of {@code runtime.test_work} burn {@link #row} steps);
 * whether a JVM allows it at all is the settings' rule ({@code io.chiplet.settings.MeasureSettings#activeInjector}).
 *
 * @param timeRatio placed over control time, from {@value #MIN_TIME_RATIO} to {@value #MAX_TIME_RATIO}
 */
public record EffectInjector(double timeRatio)
{
    /** The smallest effect: control work ten times as long. */
    public static final double MIN_TIME_RATIO = 0.1;
    /** The largest effect: placed work ten times as long. */
    public static final double MAX_TIME_RATIO = 10;
    /** Hash steps per row of the test work ({@link #row}). */
    public static final long STEPS_PER_ROW = 1_000_000;
    /** Rows of the test work per node. */
    public static final int ROWS = 100;

    public EffectInjector
    {
        if (!(timeRatio >= MIN_TIME_RATIO && timeRatio <= MAX_TIME_RATIO)) {
            throw new IllegalArgumentException("expected a time ratio from " + MIN_TIME_RATIO + " to " + MAX_TIME_RATIO + ", got " + timeRatio);
        }
    }

    /** The arm whose work is stretched: placed above a ratio of 1, control below. */
    public Arm slowedArm()
    {
        return timeRatio >= 1 ? Arm.PLACED : Arm.CONTROL;
    }

    /** How many times its own work a unit of {@code arm} takes: 1 for the arm not slowed. */
    public double stretch(Arm arm)
    {
        if (arm != slowedArm()) {
            return 1;
        }
        return timeRatio >= 1 ? timeRatio : 1 / timeRatio;
    }

    /** The time a unit of {@code arm} that ran {@code ranNanos} must add so that it took {@link #stretch} times that. */
    public long extraNanos(Arm arm, long ranNanos)
    {
        return (long) ((stretch(arm) - 1) * ranNanos);
    }

    /** Row {@code row}'s value, its work stretched as {@code arm} asks. */
    public long row(long row, Arm arm)
    {
        long value = steps(row, STEPS_PER_ROW);
        long extra = Math.round(STEPS_PER_ROW * (stretch(arm) - 1));
        if (extra > 0 && steps(value, extra) == 42) {
            // Never true in practice; keeps the JIT from dropping the burnt steps.
            value ^= 1;
        }
        return value;
    }

    /** A row's value without any injected effect: what every run, placed or not, must produce. */
    public static long expectedRow(long row)
    {
        return steps(row, STEPS_PER_ROW);
    }

    private static long steps(long start, long count)
    {
        long z = start;
        for (long i = 0; i < count; i++) {
            z = (z ^ (z >>> 31)) * 0xbf58476d1ce4e5b9L + i;
        }
        return z;
    }
}
