package io.chiplet.spark.topology;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.List;

/** Small topologies for executor tests: chiplets of given CPUs and L3, and the CPUs the process may use. */
public final class ExecutorTopologies
{
    private ExecutorTopologies() {}

    public static Topology topology(CpuSet allowed, List<Chiplet> chiplets)
    {
        CpuSet all = chiplets.stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
        return Topology.builder("test", all).allowed(allowed).chiplets(chiplets).build();
    }

    public static Chiplet chiplet(int id, CpuSet cpus, long l3)
    {
        return new Chiplet(id, 0, 0, cpus, l3, ChipletBasis.L3);
    }
}
