package io.chiplet.trino.connector;

import io.chiplet.placement.HostDivision;
import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.NoUsableChipletException;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.Policy;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import io.chiplet.trino.placement.ThreadPlacement;

import static java.util.Objects.requireNonNull;

/**
 * What a node places its query threads on before it leases ({@link #of}). Pure.
 *
 * @param share the chiplets and CPUs this process may use, before the lease narrows them
 * @param memory core's memory rule for the settings
 * @param leases how many chiplets to lease
 */
public record NodeSetup(PlacementDomain share, MemoryBinding memory, HostDivision.LeaseCount leases, Policy policy)
{
    public NodeSetup
    {
        requireNonNull(share, "share is null");
        requireNonNull(memory, "memory is null");
        requireNonNull(leases, "leases is null");
        requireNonNull(policy, "policy is null");
    }

    /**
     * What a node places its query threads on before it leases: the share (the topology's usable chiplets within
     * {@code processCpus}), core's memory rule for the settings and how many chiplets to lease (core's
     * {@link HostDivision#chipletsRequested}). The node runtime leases that many and places on the leased share with
     * {@link #placement}; {@code chiplet plan} is compared with exactly this.
     *
     * @param processCpus the CPUs the kernel lets this process use: a snapshot may describe another machine
     * @throws IllegalStateException when no chiplet of the topology holds one of {@code processCpus}
     */
    public static NodeSetup of(PlacementSettings config, Topology topology, CpuSet processCpus)
    {
        requireNonNull(config, "config is null");
        requireNonNull(topology, "topology is null");
        requireNonNull(processCpus, "processCpus is null");
        PlacementDomain share;
        try {
            share = PlacementDomain.ofProcess(topology, processCpus);
        }
        catch (NoUsableChipletException e) {
            throw new IllegalStateException(e.getMessage()
                    + config.fsRoot().map(root -> "; does " + TrinoSettings.FS_ROOT + " name a snapshot of another machine?").orElse(""), e);
        }
        MemoryBinding memory = MemoryBinding.of(topology, config.memoryBind(), config.memoryKind());
        return new NodeSetup(share, memory, HostDivision.chipletsRequested(share, config.chipletsPerNode()), config.policy());
    }

    /** The thread placement on {@code leased}: the share narrowed to the chiplets this node leased. */
    public ThreadPlacement placement(PlacementDomain leased)
    {
        return new ThreadPlacement(leased, policy, memory);
    }
}
