package io.chiplet.topology;

import io.chiplet.placement.MemoryBinding;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.placement.PlacementPlanner;
import io.chiplet.placement.Policy;
import io.chiplet.placement.WorkerPlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The NUMA nodes this process may allocate from ({@link Topology#allowedMemoryNodes()}), read as hwloc reads its
 * {@code allowed_nodeset}, on a hand-made machine of four sockets, each one node, one L3 and one chiplet of two CPUs:
 * chiplet {@code n} is CPUs {@code 2n..2n+1} on node {@code n}.
 */
class AllowedMemoryNodesTest
{
    @TempDir
    Path root;

    private FakeSysfs fourNodes()
    {
        return FakeSysfs.write(root, 4, 2, 1, 2)
                .file("sys/fs/cgroup/cgroup.controllers", "cpuset memory")
                .file("sys/fs/cgroup/cpuset.cpus.effective", "0-7")
                .file("sys/fs/cgroup/cpuset.mems.effective", "0-3")
                .file("proc/self/cgroup", "0::/job");
    }

    private static List<String> memoryNodes(Topology topology)
    {
        return PlacementPlanner.targets(PlacementDomain.of(topology), Policy.WICP_MIXED, 4, MemoryBinding.of(topology, true, MemoryKind.DRAM)).targets().stream()
                .map(WorkerPlacement::memoryNodeToBind)
                .map(node -> node.isPresent() ? "node " + node.getAsInt() : "none")
                .toList();
    }

    @Test
    void theFixtureIsFourChipletsEachOnItsOwnNode()
    {
        Topology topology = fourNodes().read();
        assertThat(topology.chiplets()).extracting(Chiplet::cpus, Chiplet::numaNode).containsExactly(
                org.assertj.core.groups.Tuple.tuple(CpuSet.range(0, 1), 0),
                org.assertj.core.groups.Tuple.tuple(CpuSet.range(2, 3), 1),
                org.assertj.core.groups.Tuple.tuple(CpuSet.range(4, 5), 2),
                org.assertj.core.groups.Tuple.tuple(CpuSet.range(6, 7), 3));
        assertThat(topology.allowedMemoryNodes()).containsExactly(0, 1, 2, 3);
        assertThat(memoryNodes(topology)).containsExactly("node 0", "node 1", "node 2", "node 3");
        assertThat(topology.unknowns()).isEmpty();
    }

    @Test
    void cpusetMemsAllowingTwoOfFourNodesLeavesTheWorkersOnTheOthersWithoutAMemoryNode()
    {
        FakeSysfs fake = fourNodes().file("sys/fs/cgroup/job/cpuset.mems.effective", "1,3");
        Topology topology = fake.read();

        assertThat(topology.allowedMemoryNodes()).containsExactly(1, 3);
        // every CPU is still allowed: the workers run on all four chiplets, and only those of nodes 1 and 3 bind memory
        assertThat(topology.allowed()).isEqualTo(CpuSet.range(0, 7));
        assertThat(memoryNodes(topology)).containsExactly("none", "node 1", "none", "node 3");
    }

    @Test
    void memsAllowedListOfProcSelfStatusNarrowsTheCgroupToOneNodeAndThenNoMemoryIsBound()
    {
        FakeSysfs fake = fourNodes()
                .file("sys/fs/cgroup/job/cpuset.mems.effective", "1,3")
                .file("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0-7\nMems_allowed:\t00000008\nMems_allowed_list:\t3");
        Topology topology = fake.read();

        assertThat(topology.allowedMemoryNodes()).containsExactly(3);
        // one node to allocate from: nothing to choose, so core's rule binds no memory at all, not even node 3
        assertThat(MemoryBinding.of(topology, true, MemoryKind.DRAM).binds()).isFalse();
        assertThat(memoryNodes(topology)).containsExactly("none", "none", "none", "none");
    }

    @Test
    void memsAllowedListAloneLimitsTooAndNodesTheMachineLacksAreDropped()
    {
        FakeSysfs fake = FakeSysfs.write(root, 4, 2, 1, 2).file("proc/self/status", "Name:\tjava\nMems_allowed_list:\t0,2,5-7");

        assertThat(fake.read().allowedMemoryNodes()).containsExactly(0, 2);
    }

    @Test
    void nothingRecordedAllowsEveryNode()
    {
        assertThat(FakeSysfs.write(root, 4, 2, 1, 2).read().allowedMemoryNodes()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void aGarbledLimitIsUnknownNamingTheFileInDiscoveryAndAnErrorBeforeAPin()
    {
        FakeSysfs fake = fourNodes().file("sys/fs/cgroup/job/cpuset.mems.effective", "1-");
        Topology topology = fake.read();

        // discovery goes on: the CPUs are as the cgroup says, every node is allowed, and the unknown names the file
        assertThat(topology.allowed()).isEqualTo(CpuSet.range(0, 7));
        assertThat(topology.allowedMemoryNodes()).containsExactly(0, 1, 2, 3);
        assertThat(topology.unknowns()).anySatisfy(unknown -> assertThat(unknown)
                .startsWith("allowed memory nodes: sys/fs/cgroup/job/cpuset.mems.effective: expected a cpulist"));
        // the check before every pin guesses nothing
        assertThatThrownBy(() -> ProcessCpus.read(root))
                .isInstanceOf(TopologyException.class)
                .hasMessageStartingWith("sys/fs/cgroup/job/cpuset.mems.effective: expected a cpulist");

        fake.file("sys/fs/cgroup/job/cpuset.mems.effective", "1,3").file("proc/self/status", "Name:\tjava\nMems_allowed_list:\tnone");
        assertThat(fake.read().unknowns()).anySatisfy(unknown -> assertThat(unknown).startsWith("allowed memory nodes: proc/self/status: expected a cpulist"));
        assertThat(fake.read().allowedMemoryNodes()).containsExactly(1, 3);
    }

    @Test
    void aLimitNamingNoNodeOfTheMachineIsSaid()
    {
        Topology topology = FakeSysfs.write(root, 4, 2, 1, 2).file("proc/self/status", "Name:\tjava\nMems_allowed_list:\t8").read();

        assertThat(topology.allowedMemoryNodes()).isEmpty();
        assertThat(topology.unknowns()).contains("allowed memory nodes: the cgroup's cpuset.mems and Mems_allowed_list allow [8], none of the NUMA nodes "
                + "[0, 1, 2, 3] under sys/devices/system/node/; no memory is bound");
        assertThat(memoryNodes(topology)).containsExactly("none", "none", "none", "none");
    }

    @Test
    void theProcessCheckReadsTheSameLimit()
    {
        fourNodes().file("sys/fs/cgroup/job/cpuset.mems.effective", "1,3").file("proc/self/status", "Name:\tjava\nMems_allowed_list:\t0-2");

        assertThat(ProcessCpus.read(root).memoryNodes()).hasValueSatisfying(nodes -> assertThat(nodes).containsExactly(1));
    }

    @Test
    void hwlocXmlGivesTheRootsAllowedNodeset()
    {
        // lstopo in a slurm job whose cgroup allows nodes 0-5 of 8
        Topology topology = new HwlocXmlTopologyReader(Snapshots.hwlocReading("32amd64-4s2n4c-cgroup")).read(0);

        assertThat(topology.numaNodes()).extracting(NumaNode::id).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(topology.allowedMemoryNodes()).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void aTopologyRefusesAllowedNodesItDoesNotHave()
    {
        Topology topology = FakeSysfs.write(root, 4, 2, 1, 2).read();

        assertThat(topology.withAllowedMemoryNodes(java.util.Set.of(2)).allowedMemoryNodes()).containsExactly(2);
        assertThatThrownBy(() -> topology.withAllowedMemoryNodes(java.util.Set.of(4)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("allowed memory nodes [4] are not all NUMA nodes of the machine [0, 1, 2, 3]");
    }
}
