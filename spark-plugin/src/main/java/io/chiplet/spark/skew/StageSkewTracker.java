package io.chiplet.spark.skew;

import io.chiplet.placement.SkewAnalysis;
import io.chiplet.placement.SkewRule;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * The driver's view of skew in the running stages and the spread hints it gives executors. Pure: Spark's listener
 * ({@link SkewListener}) feeds it, the driver plugin asks it. Thread-safe: the listener bus writes while executors'
 * asks read.
 *
 * <p>A stage's partition sizes come from two sources:
 * <ul>
 * <li>Predicted, at submission: for a stage that reads shuffles, the bytes the map side wrote for each of its
 * partitions (Spark's map-output statistics). The whole distribution is known before any task runs, so the stage
 * has its hint from the start.</li>
 * <li>Measured, as tasks finish: each successful task's input (shuffle bytes read plus input bytes, or records where
 * a source reports no bytes).</li>
 * </ul>
 * A measured input is the truth and replaces its partition's prediction; partitions still waiting or running keep
 * theirs. The distribution therefore always covers the whole stage: the heavy partitions, which finish last, are
 * never missing from it, as they would be if a handful of early, small tasks replaced the prediction wholesale.
 * Without a prediction, a stage's distribution counts once {@link #MIN_TASKS} of its tasks have finished.
 *
 * Each stage's hint is core's {@link SkewRule}: a skewed stage spreads over as many chiplets as its largest input is
 * medians large, a stage whose every input is below one chiplet's L3 consolidates (spread 1), others are not named
 * (the executor's own policy holds), nor are stages without a prediction and fewer than {@link #MIN_TASKS} finished
 * tasks. Spark counts no rows per stage here (a prediction has bytes only), so the rule's minimum stage size does
 * not apply; a stage sized by records alone never consolidates.
 */
public final class StageSkewTracker
{
    /** Finished tasks before a stage's measured distribution means anything, where nothing predicted it. */
    static final int MIN_TASKS = SkewRule.MIN_FINISHED_TASKS_WITHOUT_PREDICTION;

    private static final long[] NOT_PREDICTED = new long[0];

    /** One stage's predicted partition sizes and the latest input of each finished partition. */
    private static final class StageInputs
    {
        private final Map<Integer, long[]> bytesAndRecords = new HashMap<>();
        private long[] predictedBytes = NOT_PREDICTED;

        synchronized void predict(long[] bytesByPartition)
        {
            predictedBytes = bytesByPartition.clone();
        }

        synchronized void add(int partition, long bytes, long records)
        {
            bytesAndRecords.put(partition, new long[] {bytes, records});
        }

        synchronized Optional<Sizes> sizes()
        {
            if (predictedBytes.length > 0) {
                return Optional.of(predictedAndMeasured());
            }
            int tasks = bytesAndRecords.size();
            if (tasks < MIN_TASKS) {
                return Optional.empty();
            }
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
                return Optional.of(new Sizes(bytes, true, 0));
            }
            return anyRecords ? Optional.of(new Sizes(records, false, 0)) : Optional.empty();
        }

        private Sizes predictedAndMeasured()
        {
            Map<Integer, Long> bytes = new HashMap<>();
            for (int partition = 0; partition < predictedBytes.length; partition++) {
                bytes.put(partition, predictedBytes[partition]);
            }
            int predicted = predictedBytes.length;
            for (Map.Entry<Integer, long[]> measured : bytesAndRecords.entrySet()) {
                if (bytes.put(measured.getKey(), measured.getValue()[0]) != null) {
                    predicted--;
                }
            }
            return new Sizes(bytes.values().stream().mapToLong(Long::longValue).toArray(), true, predicted);
        }
    }

    private record Sizes(long[] values, boolean bytes, int predicted) {}

    /**
     * One stage's skew as the driver sees it now, for the driver log and the hint.
     *
     * @param predicted how many of the partitions are sized by the map output's prediction alone (their tasks have
     * not finished); 0 when every size is a finished task's input
     */
    public record StageReport(int stageId, SkewAnalysis skew, boolean inBytes, int predicted) {}

    private final Map<Integer, StageInputs> running = new ConcurrentHashMap<>();

    void stageSubmitted(int stageId)
    {
        running.putIfAbsent(stageId, new StageInputs());
    }

    /**
     * A stage whose partition sizes are known before it runs. A stage submitted again (a retried attempt) keeps the
     * inputs its earlier attempts measured.
     *
     * @param predictedBytes the bytes partition {@code i} of the stage will read, for every partition; at least one
     */
    void stageSubmitted(int stageId, long[] predictedBytes)
    {
        requireNonNull(predictedBytes, "predictedBytes is null");
        if (predictedBytes.length == 0) {
            throw new IllegalArgumentException("stage %d: expected at least one predicted partition size".formatted(stageId));
        }
        for (long bytes : predictedBytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("stage %d: predicted partition sizes must not be negative: %d".formatted(stageId, bytes));
            }
        }
        running.computeIfAbsent(stageId, stage -> new StageInputs()).predict(predictedBytes);
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

    /** The running stage's skew now, when its sizes are predicted or enough of its tasks have finished. */
    public Optional<StageReport> report(int stageId)
    {
        StageInputs inputs = running.get(stageId);
        return inputs == null ? Optional.empty() : report(stageId, inputs);
    }

    /** Forgets the stage; its measured skew when it had a prediction or enough tasks. */
    Optional<StageReport> stageCompleted(int stageId)
    {
        StageInputs inputs = running.remove(stageId);
        return inputs == null ? Optional.empty() : report(stageId, inputs);
    }

    private static Optional<StageReport> report(int stageId, StageInputs inputs)
    {
        return inputs.sizes().map(sizes -> new StageReport(stageId, SkewAnalysis.of(sizes.values()), sizes.bytes(), sizes.predicted()));
    }

    /**
     * @param maxChiplets the most chiplets one executor has: no hint is wider
     * @param l3BytesPerChiplet one chiplet's L3, 0 when unknown (then no stage consolidates)
     */
    public SpreadHints hints(int maxChiplets, long l3BytesPerChiplet)
    {
        SkewRule.Thresholds thresholds = SkewRule.Thresholds.DEFAULT.withConsolidateBelowBytes(l3BytesPerChiplet);
        Map<Integer, Integer> chipletsByStage = new HashMap<>();
        running.forEach((stageId, inputs) -> report(stageId, inputs).ifPresent(report -> {
            SkewRule.StageInputs stage = new SkewRule.StageInputs(report.skew(), OptionalLong.empty(),
                    report.inBytes() ? OptionalLong.of(report.skew().maxBytes()) : OptionalLong.empty());
            SkewRule.hint(stage, thresholds, maxChiplets).chipletSpread().ifPresent(chiplets -> chipletsByStage.put(stageId, chiplets));
        }));
        return chipletsByStage.isEmpty() ? SpreadHints.NONE : new SpreadHints(chipletsByStage);
    }
}
