package io.chiplet.spark.messages;

import static java.util.Objects.requireNonNull;

/** An executor's periodic question: how widely should the tasks of the running stages spread? */
public record SpreadHintRequest(String executorId)
{
    public SpreadHintRequest
    {
        requireNonNull(executorId, "executorId is null");
    }
}
