package io.chiplet.trino.skew;

import io.trino.spi.eventlistener.DoubleSymmetricDistribution;
import io.trino.spi.eventlistener.LongDistribution;
import io.trino.spi.eventlistener.LongSymmetricDistribution;
import io.trino.spi.eventlistener.StageTaskStatistics;

import java.util.Arrays;
import java.util.Map;

/** Builds the task statistics Trino reports for a stage from per-task inputs, as Trino's query monitor does. */
public final class StageStatistics
{
    private static final LongDistribution NO_LONGS = new LongDistribution(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    private static final LongSymmetricDistribution NO_TIMES = new LongSymmetricDistribution(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    private StageStatistics() {}

    /** A stage whose tasks processed these rows, each row {@code bytesPerRow} bytes. */
    public static StageTaskStatistics stage(int stageId, long bytesPerRow, long... rowsPerTask)
    {
        long[] bytes = Arrays.stream(rowsPerTask).map(rows -> rows * bytesPerRow).toArray();
        return new StageTaskStatistics(
                stageId,
                rowsPerTask.length,
                NO_LONGS, NO_LONGS, NO_LONGS, NO_LONGS,
                distribution(bytes), distribution(rowsPerTask),
                distribution(bytes), distribution(rowsPerTask),
                NO_LONGS, NO_LONGS, NO_LONGS,
                NO_TIMES, NO_TIMES, NO_TIMES, NO_TIMES, NO_TIMES, NO_TIMES,
                DoubleSymmetricDistribution.ZERO, DoubleSymmetricDistribution.ZERO, DoubleSymmetricDistribution.ZERO,
                DoubleSymmetricDistribution.ZERO, DoubleSymmetricDistribution.ZERO, DoubleSymmetricDistribution.ZERO,
                Map.of());
    }

    /** Nearest-rank quantiles: exact task values, as a digest over a few values gives. */
    public static LongDistribution distribution(long... values)
    {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        long total = Arrays.stream(sorted).sum();
        return new LongDistribution(
                quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75), quantile(sorted, 0.9),
                quantile(sorted, 0.95), quantile(sorted, 0.99), sorted[0], sorted[sorted.length - 1], total,
                (double) total / sorted.length);
    }

    private static long quantile(long[] sorted, double rank)
    {
        return sorted[(int) Math.round(rank * (sorted.length - 1))];
    }
}
