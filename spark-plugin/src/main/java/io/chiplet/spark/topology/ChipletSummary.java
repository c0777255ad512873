package io.chiplet.spark.topology;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;

import java.io.Serializable;
import java.util.Collection;

import static java.util.Objects.requireNonNull;

/**
 * What the driver needs to know of one executor's machine (or of all of them together) to size partitions.
 *
 * @param chiplets chiplets holding CPUs the executor may use
 * @param l3BytesPerChiplet the L3 of the smallest such chiplet; 0 when the machine does not report one
 * @param coresPerChiplet usable logical CPUs (Spark task slots) per chiplet, the smallest chiplet's count
 */
public record ChipletSummary(int chiplets, long l3BytesPerChiplet, int coresPerChiplet)
        implements Serializable
{
    public ChipletSummary
    {
        if (chiplets < 1) {
            throw new IllegalArgumentException("chiplets must be at least 1: " + chiplets);
        }
        if (l3BytesPerChiplet < 0) {
            throw new IllegalArgumentException("l3BytesPerChiplet must not be negative: " + l3BytesPerChiplet);
        }
        if (coresPerChiplet < 1) {
            throw new IllegalArgumentException("coresPerChiplet must be at least 1: " + coresPerChiplet);
        }
    }

    public int cores()
    {
        return chiplets * coresPerChiplet;
    }

    /**
     * Summarises the chiplets this process may use. The smallest chiplet sets the per-chiplet figures, so a plan
     * made from them never overfills any chiplet.
     */
    public static ChipletSummary of(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        int chiplets = 0;
        long l3 = Long.MAX_VALUE;
        int cores = Integer.MAX_VALUE;
        for (Chiplet chiplet : topology.chiplets()) {
            int usable = chiplet.cpus().intersect(topology.allowed()).size();
            if (usable == 0) {
                continue;
            }
            chiplets++;
            l3 = Math.min(l3, chiplet.l3Bytes());
            cores = Math.min(cores, usable);
        }
        if (chiplets == 0) {
            throw new IllegalArgumentException("no chiplet holds a CPU this process may use (" + topology.source() + ")");
        }
        return new ChipletSummary(chiplets, l3, cores);
    }

    /** Several machines (or leased chiplets) as one: chiplets add up, the smallest per-chiplet figures hold. */
    public static ChipletSummary combine(Collection<ChipletSummary> summaries)
    {
        if (summaries.isEmpty()) {
            throw new IllegalArgumentException("no summaries to combine");
        }
        int chiplets = 0;
        long l3 = Long.MAX_VALUE;
        int cores = Integer.MAX_VALUE;
        for (ChipletSummary summary : summaries) {
            chiplets = Math.addExact(chiplets, summary.chiplets);
            l3 = Math.min(l3, summary.l3BytesPerChiplet);
            cores = Math.min(cores, summary.coresPerChiplet);
        }
        return new ChipletSummary(chiplets, l3, cores);
    }
}
