package io.chiplet.placement;

import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import static java.util.Objects.requireNonNull;

/**
 * No chiplet of a topology holds a CPU this process may use, so there is no {@link PlacementDomain} to place on: the
 * topology describes another machine (a snapshot), or the process's cpuset and affinity mask lie outside it. One
 * type and one message for every runner ({@code chiplet exec}, both plugins), which log it or add the setting that
 * named the topology.
 */
public final class NoUsableChipletException
        extends IllegalStateException
{
    private final String source;
    private final CpuSet processCpus;
    private final CpuSet topologyAllowed;

    NoUsableChipletException(Topology topology, CpuSet processCpus, Throwable cause)
    {
        super("no chiplet of %s holds a CPU this process may use (allowed: %s); the topology allows CPUs %s"
                .formatted(topology.source(), requireNonNull(processCpus, "processCpus is null").toList(), topology.allowed().toList()), cause);
        this.source = topology.source();
        this.processCpus = processCpus;
        this.topologyAllowed = topology.allowed();
    }

    /** Where the topology was read from ({@link Topology#source()}). */
    public String source()
    {
        return source;
    }

    /** The CPUs this process may use. */
    public CpuSet processCpus()
    {
        return processCpus;
    }

    /** The CPUs the topology says are allowed ({@link Topology#allowed()}). */
    public CpuSet topologyAllowed()
    {
        return topologyAllowed;
    }
}
