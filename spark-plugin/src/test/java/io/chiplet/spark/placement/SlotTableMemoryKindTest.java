package io.chiplet.spark.placement;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.SyntheticTopologies;
import io.chiplet.slots.SlotTable;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code spark.chiplet.memory.kind}: a slot's memory goes to the node of that kind local to its chiplet, else to its own node. */
class SlotTableMemoryKindTest
{
    private static final long MIB = 1L << 20;
    /** Two nodes of DRAM with CPUs, and a CPU-less HBM node beside each (HBM in flat mode): nodes 2 and 3. */
    private static final Topology WITH_HBM = withHbm(SyntheticTopologies.uniform("test", 1, 2, 4, 1, 32 * MIB, 2));

    private static Topology withHbm(Topology dram)
    {
        List<NumaNode> nodes = new ArrayList<>(dram.numaNodes());
        for (NumaNode node : dram.numaNodes()) {
            nodes.add(new NumaNode(node.id() + 2, CpuSet.empty(), OptionalLong.of(16L << 30), new TreeMap<>(), node.cpus(), MemoryKind.HBM));
        }
        return dram.toBuilder().numaNodes(nodes).build();
    }

    private static List<OptionalInt> memoryNodes(MemoryKind kind)
    {
        return table(kind).slots().stream().map(SlotTable.Slot::memoryNode).toList();
    }

    private static SlotTable table(MemoryKind kind)
    {
        MemoryBinding memory = MemoryBinding.of(WITH_HBM, true, kind);
        return SlotTable.of(PlacementPlanner.targets(PlacementDomain.of(WITH_HBM), Policy.WICP_MIXED, 2, memory));
    }

    @Test
    void hbmSlotsPreferTheHbmNodeBesideTheirChiplet()
    {
        assertThat(memoryNodes(MemoryKind.HBM)).containsExactly(OptionalInt.of(2), OptionalInt.of(3));
    }

    @Test
    void dramSlotsPreferTheirChipletsOwnNodeAsBefore()
    {
        assertThat(memoryNodes(MemoryKind.DRAM)).containsExactly(OptionalInt.of(0), OptionalInt.of(1));
        assertThat(table(MemoryKind.DRAM).slots()).extracting(SlotTable.Slot::cpus)
                .containsExactly(Optional.of(CpuSet.range(0, 3)), Optional.of(CpuSet.range(4, 7)));
    }

    @Test
    void aKindThisMachineLacksLeavesEachSlotOnItsOwnNode()
    {
        assertThat(memoryNodes(MemoryKind.CXL_PMEM)).containsExactly(OptionalInt.of(0), OptionalInt.of(1));
    }
}
