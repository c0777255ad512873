package io.chiplet.spark;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in until topology discovery is merged: the JVM's processor count as one chiplet (or virtual chiplets
 * of {@code spark.chiplet.virtualChipletCores}), with no L3 size, so only partition counts are sized.
 */
public final class ProcessorCountTopologySource
        implements TopologySource
{
    @Override
    public Topology read(ChipletSettings settings)
    {
        int cpus = Runtime.getRuntime().availableProcessors();
        CpuSet all = CpuSet.range(0, cpus - 1);
        int size = settings.virtualChipletCores() > 0 ? settings.virtualChipletCores() : cpus;
        List<Chiplet> chiplets = new ArrayList<>();
        for (int first = 0; first < cpus; first += size) {
            chiplets.add(new Chiplet(
                    chiplets.size(),
                    0,
                    0,
                    CpuSet.range(first, Math.min(first + size, cpus) - 1),
                    0,
                    settings.virtualChipletCores() > 0 ? ChipletBasis.VIRTUAL : ChipletBasis.PACKAGE));
        }
        return new Topology(
                "jvm:availableProcessors",
                all,
                all,
                all,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                chiplets,
                List.of("no cache or NUMA information: topology discovery is not wired in yet"));
    }
}
