package io.chiplet.affinity;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;

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

    /** The host the chiplets are of: its packages are what tells "the first one's package" apart. */
    static final Topology TOPOLOGY = Topology.builder("fixture:two-packages-four-chiplets", CpuSet.range(0, 31))
            .packages(List.of(new CpuPackage(0, CpuSet.parseList("0-7,16-23")), new CpuPackage(1, CpuSet.parseList("8-15,24-31"))))
            .chiplets(CHIPLETS)
            .build();

    private LeaseFixture() {}
}
