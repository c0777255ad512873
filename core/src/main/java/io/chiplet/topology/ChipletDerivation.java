package io.chiplet.topology;

import java.util.List;

/**
 * Derives chiplets (the locality domains placement works with) from the facts a reader found, the same way for
 * every source (sysfs, hwloc XML, oshi). Pure: facts in, chiplets out. The rules are those of
 * {@code ../shared/spec/topology-json.md} and {@code docs/topology.md}.
 */
public final class ChipletDerivation
{
    private ChipletDerivation() {}

    /**
     * @param online the online CPUs; the chiplets partition exactly these
     * @param virtualChipletCores when positive, split every domain into virtual chiplets of this many physical cores
     * @return chiplets numbered 0.. in order of their first CPU
     */
    public static List<Chiplet> derive(
            CpuSet online,
            List<CpuPackage> packages,
            List<Die> dies,
            List<Cluster> clusters,
            List<NumaNode> numaNodes,
            List<Cache> caches,
            List<Core> cores,
            int virtualChipletCores)
    {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
