package io.chiplet.spark;

import io.chiplet.placement.SkewAnalysis;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The driver's view of skew in the running stages, from each finished task's input (shuffle bytes read plus input
 * bytes, or records where a source reports no bytes), and the spread hints it gives executors. Pure: Spark's
 * listener ({@link SkewListener}) feeds it, the driver plugin asks it. Thread-safe: the listener bus writes while
 * executors' asks read.
 *
 * <ul>
 * <li>A skewed stage (largest task input at least {@link SkewAnalysis#SKEWED_MAX_OVER_MEDIAN} times the median) is
 * heavy: its tasks may spread over as many chiplets as the largest is medians large, so a heavy task gets the L3 of
 * several chiplets (the study's skew-aware allocation, §4.5.3).</li>
 * <li>A stage whose every task input fits one chiplet's L3 is light: spread 1, consolidated where its data is.</li>
 * <li>Other stages, and stages with fewer than {@link #MIN_TASKS} finished tasks, are not named: the executor's own
 * policy holds.</li>
 * </ul>
 */
final class StageSkew
{
    /** Finished tasks before a stage's distribution means anything. */
    static final int MIN_TASKS = 4;

    /** The latest input of each finished partition of one stage. */
    private static final class StageInputs
    {
        private final Map<Integer, long[]> bytesAndRecords = new HashMap<>();

        synchronized void add(int partition, long bytes, long records)
        {
            bytesAndRecords.put(partition, new long[] {bytes, records});
        }

        synchronized Optional<Sizes> sizes()
        {
            int tasks = bytesAndRecords.size();
            long[] bytes = new long[tasks];
            long[] records = new long[tasks];
            int index = 0;
            boolean anyBytes = false;
            boolean anyRecords = false;
            for (long[] input : bytesAndRecords.values()) {
                bytes[index] = input[0];
                records[index++] = input[1];
                anyBytes |= input[0] > 0;
                anyRecords |= input[1] > 0;
            }
            if (anyBytes) {
                return Optional.of(new Sizes(bytes, true));
            }
            return anyRecords ? Optional.of(new Sizes(records, false)) : Optional.empty();
        }
    }

    private record Sizes(long[] values, boolean bytes) {}

    /** One stage's measured skew, for the driver log and the hint. */
    record StageReport(int stageId, SkewAnalysis skew, boolean inBytes) {}

    private final Map<Integer, StageInputs> running = new ConcurrentHashMap<>();

    void stageSubmitted(int stageId)
    {
        running.putIfAbsent(stageId, new StageInputs());
    }

    void taskEnded(int stageId, int partition, long bytes, long records)
    {
        if (bytes < 0 || records < 0) {
            throw new IllegalArgumentException("task input must not be negative: %d bytes, %d records".formatted(bytes, records));
        }
        StageInputs inputs = running.get(stageId);
        if (inputs != null) {
            inputs.add(partition, bytes, records);
        }
    }

    /** Forgets the stage; its measured skew when it had enough tasks. */
    Optional<StageReport> stageCompleted(int stageId)
    {
        StageInputs inputs = running.remove(stageId);
        return inputs == null ? Optional.empty() : report(stageId, inputs);
    }

    private static Optional<StageReport> report(int stageId, StageInputs inputs)
    {
        return inputs.sizes()
                .filter(sizes -> sizes.values().length >= MIN_TASKS)
                .map(sizes -> new StageReport(stageId, SkewAnalysis.of(sizes.values()), sizes.bytes()));
    }

    /**
     * @param maxChiplets the most chiplets one executor has: no hint is wider
     * @param l3BytesPerChiplet one chiplet's L3, 0 when unknown (then no stage is called light)
     */
    SpreadHints hints(int maxChiplets, long l3BytesPerChiplet)
    {
        Map<Integer, Integer> chipletsByStage = new HashMap<>();
        running.forEach((stageId, inputs) -> report(stageId, inputs).ifPresent(report -> {
            SkewAnalysis skew = report.skew();
            if (skew.isSkewed() && maxChiplets >= 2) {
                double wide = Double.isInfinite(skew.maxOverMedian()) ? maxChiplets : Math.ceil(skew.maxOverMedian());
                chipletsByStage.put(stageId, (int) Math.clamp(wide, 2, maxChiplets));
            }
            else if (!skew.isSkewed() && report.inBytes() && l3BytesPerChiplet > 0 && skew.maxBytes() <= l3BytesPerChiplet) {
                chipletsByStage.put(stageId, 1);
            }
        }));
        return chipletsByStage.isEmpty() ? SpreadHints.NONE : new SpreadHints(chipletsByStage);
    }
}
