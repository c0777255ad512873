package io.chiplet.affinity;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;

import java.util.List;

/**
 * A two-package host of four chiplets, numbered as Linux numbers them when CPUs alternate between sockets: package 0
 * holds chiplets 0 and 2, package 1 holds 1 and 3.
 */
final class LeaseFixture
{
    static final List<Chiplet> CHIPLETS = List.of(
            new Chiplet(0, 0, 0, CpuSet.range(0, 7), 32L << 20, ChipletBasis.L3),
            new Chiplet(1, 1, 1, CpuSet.range(8, 15), 32L << 20, ChipletBasis.L3),
            new Chiplet(2, 0, 0, CpuSet.range(16, 23), 32L << 20, ChipletBasis.L3),
            new Chiplet(3, 1, 1, CpuSet.range(24, 31), 32L << 20, ChipletBasis.L3));

    private LeaseFixture() {}
}
