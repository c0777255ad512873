package io.chiplet.spark.skew;

import java.util.Map;

/**
 * The driver's answer to an executor: for each stage it has measured skew in, the number of chiplets a task of
 * that stage may spread over (heavy partitions more, light ones one). Stages not named keep the executor's own
 * policy.
 */
public record SpreadHints(Map<Integer, Integer> chipletsByStage)
{
    public static final SpreadHints NONE = new SpreadHints(Map.of());

    public SpreadHints
    {
        chipletsByStage = Map.copyOf(chipletsByStage);
        chipletsByStage.forEach((stage, chiplets) -> {
            if (chiplets < 1) {
                throw new IllegalArgumentException("stage %d: chiplets must be at least 1: %d".formatted(stage, chiplets));
            }
        });
    }

    public int chipletsFor(int stageId, int otherwise)
    {
        return chipletsByStage.getOrDefault(stageId, otherwise);
    }
}
