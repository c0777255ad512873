package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/**
 * A cluster of cores ({@code topology/cluster_id}): ARM clusters, Intel E-core modules sharing an L2. Where every
 * cluster is just one core (x86 servers), a machine has none, as in hwloc.
 */
public record Cluster(int packageId, int id, CpuSet cpus)
{
    public Cluster
    {
        requireNonNull(cpus, "cpus is null");
    }
}
