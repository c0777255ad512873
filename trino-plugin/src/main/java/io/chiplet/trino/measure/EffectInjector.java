package io.chiplet.trino.measure;

import io.chiplet.measure.Arm;

/**
 * Test only: makes work of one arm take a known factor longer, so that a real server run can show that the
 * measurement recovers it. Active only where the JVM runs with {@code -Dchiplet.test.effectInjector=true} and the
 * worker's catalog sets {@link MeasureSettings#INJECT_TIME_RATIO}; without the property the setting is ignored with a
 * warning. It acts on one thing only, the test work of table {@code runtime.test_work} (which exists only while the
 * injector is active): each row's value is a fixed chain of hash steps, and in the slowed arm the row burns that many
 * steps again times the factor less one, so the row's CPU time is stretched by the factor and its value is the same.
 *
 * @param timeRatio placed over control time: above 1 placed work is slowed, below 1 control work is slowed by its
 *         inverse
 */
public record EffectInjector(double timeRatio)
{
    public static final String SYSTEM_PROPERTY = "chiplet.test.effectInjector";
    /** Hash steps per row of {@code runtime.test_work}. */
    public static final long STEPS_PER_ROW = 1_000_000;
    /** Rows of {@code runtime.test_work} per node. */
    public static final int ROWS = 100;

    public EffectInjector
    {
        if (!(timeRatio >= 0.1 && timeRatio <= 10)) {
            throw new IllegalArgumentException("expected a time ratio from 0.1 to 10, got " + timeRatio);
        }
    }

    /** Whether this JVM allows the injector. */
    public static boolean allowed()
    {
        return Boolean.getBoolean(SYSTEM_PROPERTY);
    }

    /** How many times its own work a unit of {@code arm} takes. */
    public double stretch(Arm arm)
    {
        if (timeRatio >= 1) {
            return arm == Arm.PLACED ? timeRatio : 1;
        }
        return arm == Arm.CONTROL ? 1 / timeRatio : 1;
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
