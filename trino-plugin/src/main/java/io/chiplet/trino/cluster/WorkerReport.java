package io.chiplet.trino.cluster;

import static java.util.Objects.requireNonNull;

/**
 * One worker's report: core's partition basis of its own machine (or the snapshot its catalog names), read on the
 * worker.
 *
 * @param node the worker's node id
 * @param host the worker's host, as Trino's node manager gives it: workers of one host share its cores
 * @param chiplets usable chiplets
 * @param cores usable physical cores
 */
public record WorkerReport(String node, String host, int chiplets, int cores)
{
    public WorkerReport
    {
        requireNonNull(node, "node is null");
        requireNonNull(host, "host is null");
        if (node.isBlank() || host.isBlank()) {
            throw new IllegalArgumentException("a worker report needs a node and a host: '" + node + "', '" + host + "'");
        }
        if (chiplets < 1 || cores < chiplets) {
            throw new IllegalArgumentException("expected at least one chiplet and one core per chiplet but was " + chiplets + " chiplets, " + cores + " cores");
        }
    }
}
