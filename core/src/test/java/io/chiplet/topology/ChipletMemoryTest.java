package io.chiplet.topology;

import io.chiplet.settings.SettingValues;
import io.chiplet.settings.UnusableValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The memory-kind setting's choice of node per chiplet, on the Xeon Max-like snapshot with CPU-less HBM and CXL nodes. */
class ChipletMemoryTest
{
    private static final CpuSet SOCKET_0 = CpuSet.parseList("0-55,112-167");

    @Test
    void hbmIsTheCpuLessNodeBesideEachChipletsSocket(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("cpuless-hbm-cxl", temp)).read();

        ChipletMemory hbm = ChipletMemory.of(topology, MemoryKind.HBM);

        assertThat(topology.chiplets()).hasSize(2);
        for (Chiplet chiplet : topology.chiplets()) {
            assertThat(hbm.nodeOf(chiplet.id(), chiplet.numaNode())).isEqualTo(SOCKET_0.containsAll(chiplet.cpus()) ? 2 : 3);
        }
        assertThat(hbm.withoutKind()).isEmpty();
        assertThat(hbm.shortfall()).isEmpty();
        assertThat(hbm.describe()).isEqualTo("node 2 for chiplet 0, node 3 for chiplet 1");
        assertThatThrownBy(() -> ChipletMemory.of(topology, MemoryKind.GPU)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected one of dram, hbm, cxl-pmem");
    }

    @Test
    void dramIsEachChipletsOwnNodeAsBindingAlwaysWas(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("cpuless-hbm-cxl", temp)).read();

        ChipletMemory dram = ChipletMemory.of(topology, MemoryKind.DRAM);

        for (Chiplet chiplet : topology.chiplets()) {
            assertThat(dram.nodeOf(chiplet.id(), -7)).isEqualTo(chiplet.numaNode());
        }
        assertThat(dram.shortfall()).isEmpty();
    }

    @Test
    void aChipletWithNoLocalNodeOfTheKindKeepsItsOwnNodeAndSaysSo(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("cpuless-hbm-cxl", temp)).read();

        ChipletMemory cxl = ChipletMemory.of(topology, MemoryKind.CXL_PMEM);

        Chiplet socket1 = topology.chiplets().stream().filter(chiplet -> !SOCKET_0.containsAll(chiplet.cpus())).findFirst().orElseThrow();
        assertThat(cxl.nodeOf(socket1.id(), -1)).isEqualTo(socket1.numaNode()).isEqualTo(1);
        assertThat(cxl.withoutKind()).containsExactly(socket1.id());
        assertThat(cxl.shortfall()).contains("no cxl-pmem NUMA node of known locality is local to chiplets " + socket1.id()
                + "; their memory stays on their own NUMA node");
    }

    @Test
    void onAMachineWithoutHbmEveryChipletKeepsItsOwnNode(@TempDir Path temp)
    {
        Topology topology = SysfsTopologyReader.snapshot(Snapshots.unpack("2xepyc7763-nps4", temp)).read();

        ChipletMemory hbm = ChipletMemory.of(topology, MemoryKind.HBM);

        assertThat(hbm.nodeByChiplet()).hasSize(topology.chiplets().size());
        topology.chiplets().forEach(chiplet -> assertThat(hbm.nodeOf(chiplet.id(), -1)).isEqualTo(chiplet.numaNode()));
        assertThat(hbm.shortfall()).contains("no hbm NUMA node of known locality is local to any chiplet; their memory stays on their own NUMA node");
    }

    @Test
    void theSettingTakesTheSelectableKindsOnly()
    {
        assertThat(SettingValues.parseMemoryKind("HBM")).isEqualTo(MemoryKind.HBM);
        assertThat(SettingValues.parseMemoryKind("dram")).isEqualTo(MemoryKind.DRAM);
        assertThat(SettingValues.parseMemoryKind("cxl-pmem")).isEqualTo(MemoryKind.CXL_PMEM);
        for (String bad : new String[] {"gpu", "unknown", "hbm2", ""}) {
            assertThatThrownBy(() -> SettingValues.parseMemoryKind(bad)).isInstanceOf(UnusableValueException.class).hasMessageContaining("dram, hbm or cxl-pmem");
        }
    }
}
