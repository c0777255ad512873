package io.chiplet.jmh.workload;

import io.chiplet.topology.Cache;
import io.chiplet.topology.CacheType;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;

import static java.util.Objects.requireNonNull;

/**
 * Working-set sizes that bracket one chiplet's L3 and the sum of all L3s, computed from a topology. On a dual
 * EPYC 7763 (16 chiplets of 32 MiB) they are 16 MiB, 272 MiB and 2 GiB; on a machine with a single L3 there is no
 * "between" range, so that class lands just past the one L3.
 *
 * @param chipletL3Bytes the largest L3 one chiplet has
 * @param totalL3Bytes all L3 instances together
 * @param l3Known false when the topology reported no L3 and {@link #ASSUMED_L3_BYTES} stands in
 */
public record WorkingSets(long chipletL3Bytes, long totalL3Bytes, boolean l3Known)
{
    /** A typical chiplet L3 (Zen 2-4 CCD), used only when the machine reports none. */
    public static final long ASSUMED_L3_BYTES = 32L << 20;

    /** Kernels need room for a few arrays per worker; nothing is sized below this. */
    private static final long MIN_BYTES = 1L << 20;

    public WorkingSets
    {
        if (chipletL3Bytes <= 0 || totalL3Bytes < chipletL3Bytes) {
            throw new IllegalArgumentException("need 0 < chiplet L3 <= total L3 but got " + chipletL3Bytes + " and " + totalL3Bytes);
        }
    }

    public static WorkingSets of(Topology topology)
    {
        requireNonNull(topology, "topology is null");
        long chiplet = topology.chiplets().stream().mapToLong(Chiplet::l3Bytes).max().orElse(0);
        long total = topology.cachesOfLevel(3).stream()
                .filter(cache -> cache.type() != CacheType.INSTRUCTION)
                .mapToLong(Cache::sizeBytes)
                .sum();
        if (chiplet <= 0) {
            chiplet = topology.cachesOfLevel(3).stream().mapToLong(Cache::sizeBytes).max().orElse(0);
        }
        if (chiplet <= 0) {
            return new WorkingSets(ASSUMED_L3_BYTES, ASSUMED_L3_BYTES, false);
        }
        return new WorkingSets(chiplet, Math.max(total, chiplet), true);
    }

    public boolean singleL3()
    {
        return totalL3Bytes == chipletL3Bytes;
    }

    /** Total bytes the kernel's arrays occupy over all workers. */
    public long bytes(SizeClass sizeClass)
    {
        long bytes = switch (sizeClass) {
            case BELOW_L3 -> chipletL3Bytes / 2;
            case BETWEEN -> singleL3() ? chipletL3Bytes * 3 / 2 : (chipletL3Bytes + totalL3Bytes) / 2;
            case BEYOND -> totalL3Bytes * 4;
        };
        return Math.max(bytes, MIN_BYTES);
    }
}
