package io.chiplet.topology;

import static java.util.Objects.requireNonNull;

/**
 * A locality domain placement works with: CPUs that share one L3 instance (and one NUMA node, one package).
 * {@code l3Bytes} is the L3 these CPUs share, 0 when the machine reports none; where a NUMA node splits the L3
 * (basis {@code l3+numa}: SNC keeps each domain's lines in its own slices) and for virtual chiplets it is the
 * CPUs' proportional share of the L3 they sit in. {@code numaNode} and {@code packageId} are -1 when no node or
 * package lists the CPUs.
 */
public record Chiplet(int id, int packageId, int numaNode, CpuSet cpus, long l3Bytes, ChipletBasis basis)
{
    public Chiplet
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(basis, "basis is null");
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("chiplet " + id + " has no CPUs");
        }
    }
}
