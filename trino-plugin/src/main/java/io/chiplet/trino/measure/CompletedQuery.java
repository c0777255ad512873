package io.chiplet.trino.measure;

import static java.util.Objects.requireNonNull;

/**
 * A completed query as the coordinator's event listener saw it.
 *
 * @param shape its text's fingerprint ({@code QueryShape}): queries are compared only with queries of one shape
 * @param text the start of its text, for the reader of the table and the report
 * @param startMillis when it started executing (epoch milliseconds)
 * @param endMillis when it ended
 * @param cpuNanos the CPU time of all its stages' tasks, as Trino counted it
 * @param bytesRead what it read: processed input plus exchanged bytes
 * @param rowsRead the same in rows
 * @param failed whether it failed: failed queries count in the job's CPU, not in the comparison
 */
public record CompletedQuery(String queryId, String shape, String text, long startMillis, long endMillis, long cpuNanos, long bytesRead, long rowsRead, boolean failed)
{
    public CompletedQuery
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(shape, "shape is null");
        requireNonNull(text, "text is null");
        if (cpuNanos < 0 || bytesRead < 0 || rowsRead < 0) {
            throw new IllegalArgumentException("expected CPU, bytes and rows of 0 or more");
        }
    }
}
