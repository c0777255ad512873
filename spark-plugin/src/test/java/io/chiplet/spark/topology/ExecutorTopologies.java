package io.chiplet.spark.topology;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class ChipletSummaryTest
{
    private static final long MIB = 1L << 20;

    @Test
    void countsOnlyWhatTheProcessMayUseAndTakesTheSmallestChiplet()
    {
        Topology topology = topology(CpuSet.parseList("0-5,8-9"), List.of(
                chiplet(0, CpuSet.range(0, 3), 32 * MIB),
                chiplet(1, CpuSet.range(4, 7), 16 * MIB),
                chiplet(2, CpuSet.range(8, 11), 32 * MIB),
                chiplet(3, CpuSet.range(12, 15), 8 * MIB)));

        // Chiplet 3 holds no allowed CPU; chiplets 1 and 2 offer two each.
        assertThat(ChipletSummary.of(topology)).isEqualTo(new ChipletSummary(3, 16 * MIB, 2));
    }

    @Test
    void noUsableChipletIsAnError()
    {
        Topology topology = topology(CpuSet.of(9), List.of(chiplet(0, CpuSet.range(0, 3), MIB)));

        assertThatThrownBy(() -> ChipletSummary.of(topology)).hasMessageContaining("no chiplet holds a CPU this process may use");
    }

    @Test
    void combineAddsChipletsAndKeepsTheSmallestFigures()
    {
        assertThat(ChipletSummary.combine(List.of(new ChipletSummary(8, 32 * MIB, 16), new ChipletSummary(2, 96 * MIB, 8))))
                .isEqualTo(new ChipletSummary(10, 32 * MIB, 8));
        assertThatThrownBy(() -> ChipletSummary.combine(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    public static Topology topology(CpuSet allowed, List<Chiplet> chiplets)
    {
        CpuSet all = chiplets.stream().map(Chiplet::cpus).reduce(CpuSet.empty(), CpuSet::union);
        return new Topology("test", all, all, allowed, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), chiplets, List.of());
    }

    public static Chiplet chiplet(int id, CpuSet cpus, long l3)
    {
        return new Chiplet(id, 0, 0, cpus, l3, ChipletBasis.L3);
    }
}
