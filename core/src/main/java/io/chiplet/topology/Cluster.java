package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/** A cluster of cores ({@code topology/cluster_id}): ARM clusters, Intel E-core modules sharing an L2. */
public record Cluster(int packageId, int id, CpuSet cpus)
{
    public Cluster
    {
        requireNonNull(cpus, "cpus is null");
    }
}
