package io.chiplet.placement;

import io.chiplet.topology.Cache;
import io.chiplet.topology.CacheType;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.ChipletBasis;
import io.chiplet.topology.Core;
import io.chiplet.topology.CpuPackage;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.MemoryKind;
import io.chiplet.topology.NumaNode;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Finished targets on the dual EPYC 7763 (NPS1: 16 CCDs of 8 cores, CCD k = CPUs 8k..8k+7 and their siblings +128; nodes 0 and 1). */
class WorkerPlacementsTest
{
    private static final Topology EPYC = TestTopologies.dualEpyc7763();
    private static final PlacementDomain SHARE = PlacementDomain.of(EPYC);
    private static final MemoryBinding BIND = MemoryBinding.of(EPYC, true, MemoryKind.DRAM);

    private static List<String> cpus(WorkerPlacements targets)
    {
        return targets.targets().stream().map(target -> target.cpusToBind().map(CpuSet::toList).orElse("unbound")).toList();
    }

    private static List<String> nodes(WorkerPlacements targets)
    {
        return targets.targets().stream().map(target -> target.memoryNodeToBind().isPresent() ? "node " + target.memoryNodeToBind().getAsInt() : "none").toList();
    }

    @Test
    void wicpLocalBindsTheWholeChipletNotTheOneCpuThePlannerBooked()
    {
        WorkerPlacements targets = PlacementPlanner.targets(SHARE, Policy.WICP_LOCAL, 2, BIND);
        // The plan books CPUs 0 and 1 of CCD 0; both workers run on all of CCD 0.
        assertThat(targets.plan().assignments()).extracting(a -> a.cpus().toList()).containsExactly("0", "1");
        assertThat(cpus(targets)).containsExactly("0-7,128-135", "0-7,128-135");
        assertThat(targets.targets()).extracting(WorkerPlacement::chiplet).containsExactly(OptionalInt.of(0), OptionalInt.of(0));
        assertThat(nodes(targets)).containsExactly("node 0", "node 0");
    }

    @Test
    void wicpMixedSpreadsOverPackagesAndBindsEachChipletsNode()
    {
        WorkerPlacements targets = PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, BIND);
        assertThat(cpus(targets)).containsExactly("0-7,128-135", "64-71,192-199");
        assertThat(nodes(targets)).containsExactly("node 0", "node 1");
    }

    @Test
    void wimBindsNothingAtAll()
    {
        WorkerPlacements targets = PlacementPlanner.targets(SHARE, Policy.WIM, 3, BIND);
        assertThat(targets.targets()).containsExactly(WorkerPlacement.unbound(0), WorkerPlacement.unbound(1), WorkerPlacement.unbound(2));
        assertThat(targets.bindsMemory()).isFalse();
    }

    @Test
    void wicKeepsOneCoreAndWinItsNode()
    {
        assertThat(cpus(PlacementPlanner.targets(SHARE, Policy.WIC, 2, BIND))).containsExactly("0,128", "1,129");
        WorkerPlacements win = PlacementPlanner.targets(SHARE, Policy.WIN, 2, BIND);
        assertThat(cpus(win)).containsExactly("0-63,128-191", "64-127,192-255");
        assertThat(nodes(win)).containsExactly("node 0", "node 1");
        assertThat(win.targets()).extracting(WorkerPlacement::chiplet).containsExactly(OptionalInt.empty(), OptionalInt.empty());
    }

    @Test
    void memoryIsBoundOnlyWhenAskedAndWithMoreThanOneAllowedNode()
    {
        assertThat(nodes(PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, MemoryBinding.off(EPYC)))).containsExactly("none", "none");
        // cpuset.mems = 0: one node to allocate from, nothing to choose
        MemoryBinding oneNode = MemoryBinding.of(EPYC.withAllowedMemoryNodes(Set.of(0)), true, MemoryKind.DRAM);
        assertThat(oneNode.binds()).isFalse();
        assertThat(nodes(PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, oneNode))).containsExactly("none", "none");
        // a node the process may not allocate from is never named: cpuset.mems = 0,2 on four nodes, one chiplet each
        Topology fourNodes = SyntheticTopologies.uniform("test", 1, 4, 2, 1, 32L << 20, 4).withAllowedMemoryNodes(Set.of(0, 2));
        MemoryBinding notNodesOneAndThree = MemoryBinding.of(fourNodes, true, MemoryKind.DRAM);
        assertThat(nodes(PlacementPlanner.targets(PlacementDomain.of(fourNodes), Policy.WICP_MIXED, 4, notNodesOneAndThree)))
                .containsExactly("node 0", "none", "node 2", "none");
    }

    @Test
    void aWholeProcessGetsItsLeasedChipletUnderEveryPolicyButWim()
    {
        // The share narrowed to a leased CCD 9 (package 1, node 1): CPUs 72-79 and their siblings 200-207.
        PlacementDomain leased = SHARE.leased(List.of(EPYC.chiplets().get(9)));
        for (Policy policy : List.of(Policy.WIN, Policy.WICP_LOCAL, Policy.WICP_MIXED, Policy.WIC, Policy.AUTO, Policy.ADAPTIVE)) {
            assertThat(HostDivision.processPlacement(leased, policy, BIND)).as(policy.cliName())
                    .isEqualTo(new WorkerPlacement(0, OptionalInt.of(9), Optional.of(CpuSet.parseList("72-79,200-207")), OptionalInt.of(1)));
        }
        assertThat(HostDivision.processPlacement(leased, Policy.WIC, MemoryBinding.off(EPYC)).memoryNodeToBind()).isEmpty();
        // wim: nothing, so nothing to lease either.
        assertThat(HostDivision.processPlacement(leased, Policy.WIM, BIND)).isEqualTo(WorkerPlacement.unbound(0));
        assertThat(HostDivision.processPlacement(SHARE, Policy.WIM, BIND).bindsAnything()).isFalse();
        // Before leasing, on the whole host: what `chiplet plan --policy wicp-local --workers 1` prints for worker 0.
        assertThat(HostDivision.processPlacement(SHARE, Policy.WIC, BIND)).isEqualTo(PlacementPlanner.targets(SHARE, Policy.WICP_LOCAL, 1, BIND).target(0));
        assertThat(HostDivision.processRule(Policy.WIM)).contains("binds nothing");
        assertThat(HostDivision.processRule(Policy.WIC)).contains("leased chiplet");
    }

    @Test
    void theMemoryDescriptionIsReadFromTheFinishedTargets()
    {
        assertThat(PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, BIND).memoryDescription()).isEqualTo("bound to each worker's NUMA node");
        // Asked for, two nodes, but wim binds nothing: it says so rather than what was asked.
        assertThat(PlacementPlanner.targets(SHARE, Policy.WIM, 2, BIND).memoryDescription()).isEqualTo("not bound under wim");
        assertThat(PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, MemoryBinding.off(EPYC)).memoryDescription()).isEqualTo("not bound (not asked for)");
        assertThat(PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, MemoryBinding.of(EPYC.withAllowedMemoryNodes(Set.of(0)), true, MemoryKind.DRAM)).memoryDescription())
                .isEqualTo("not bound: 1 NUMA node(s), no choice to make");
    }

    @Test
    void withSpreadsPinsEachWorkerToTheWholeChipletTheLocatorBooks()
    {
        WorkerPlacements start = PlacementPlanner.targets(SHARE, Policy.ADAPTIVE, 2, BIND);
        assertThat(cpus(start)).containsExactly("0-7,128-135", "0-7,128-135");
        // A spread books that many of a chiplet's 8 core units: 1 + 2 still fit CCD 0 ...
        assertThat(cpus(start.withSpreads(new int[] {1, 2}))).containsExactly("0-7,128-135", "0-7,128-135");
        // ... 8 + 8 do not: the second worker goes to CCD 1, whole, with its node's memory.
        WorkerPlacements wider = start.withSpreads(new int[] {8, 8});
        assertThat(wider.policy()).isEqualTo(Policy.ADAPTIVE);
        assertThat(cpus(wider)).containsExactly("0-7,128-135", "8-15,136-143");
        assertThat(wider.targets()).extracting(WorkerPlacement::chiplet).containsExactly(OptionalInt.of(0), OptionalInt.of(1));
        assertThat(nodes(wider)).containsExactly("node 0", "node 0");
        assertThatThrownBy(() -> start.withSpreads(new int[] {1})).hasMessageContaining("one spread per worker (2)");
    }

    @Test
    void aShareNarrowedToALeaseOrACpusetChangeIsWherePlansGo()
    {
        PlacementDomain leased = SHARE.leased(List.of(EPYC.chiplet(3).orElseThrow()));
        assertThat(leased.ids()).containsExactly(3);
        assertThat(cpus(PlacementPlanner.targets(leased, Policy.WICP_MIXED, 1, BIND))).containsExactly("24-31,152-159");
        // the cpuset shrinks to half of CCD 3 and CCD 4: the share keeps its own chiplet, within the new CPUs
        PlacementDomain rescoped = leased.rescopedTo(CpuSet.parseList("24-27,32-39"));
        assertThat(rescoped.shareCpus().toList()).isEqualTo("24-27");
        // none of its chiplets is left: the usable chiplets of the new CPUs
        assertThat(leased.rescopedTo(CpuSet.parseList("40-47")).ids()).containsExactly(5);
        // usable = holding any allowed CPU; the share holds only the allowed ones
        PlacementDomain partial = PlacementDomain.of(EPYC, CpuSet.parseList("0-3,8"));
        assertThat(partial.ids()).containsExactly(0, 1);
        assertThat(partial.cpusOf(1).toList()).isEqualTo("8");
    }

    @Test
    void targetsFollowTheShareAfterACpusetChange()
    {
        WorkerPlacements before = PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 2, BIND);
        WorkerPlacements after = PlacementPlanner.within(before, SHARE.rescopedTo(CpuSet.parseList("24-31,152-159")));
        assertThat(cpus(after)).containsExactly("24-31,152-159", "24-31,152-159");
        assertThat(nodes(after)).containsExactly("node 0", "node 0");
    }

    @Test
    void runningWorkersKeepTheirPlaceWhereItHasRoom()
    {
        // wicp-mixed, 3 workers: CCD 0 (node 0), CCD 8 (node 1), CCD 1 (node 0)
        WorkerPlacements targets = PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 3, BIND);
        assertThat(cpus(targets)).containsExactly("0-7,128-135", "64-71,192-199", "8-15,136-143");
        CpuSet ccd1 = CpuSet.parseList("8-15,136-143");
        // worker 0 already runs on CCD 1 and keeps it; worker 1 is new; worker 2 runs on CCD 1 too, which is taken now
        List<WorkerPlacement> placed = targets.keepingCurrent(List.of(Optional.of(ccd1), Optional.empty(), Optional.of(ccd1)));
        assertThat(placed).extracting(target -> target.cpusToBind().orElseThrow().toList())
                .containsExactly("8-15,136-143", "0-7,128-135", "64-71,192-199");
        assertThat(placed).extracting(WorkerPlacement::worker).containsExactly(0, 1, 2);
        assertThat(placed).extracting(WorkerPlacement::memoryNodeToBind).containsExactly(OptionalInt.of(0), OptionalInt.of(0), OptionalInt.of(1));
        // Nothing running yet: each worker gets exactly what plan prints for it, not the first CPU set with room
        WorkerPlacements five = PlacementPlanner.targets(SHARE, Policy.WICP_MIXED, 5, BIND);
        List<Optional<CpuSet>> none = List.of(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(five.keepingCurrent(none)).isEqualTo(five.targets());
        // wim: nothing to keep or move
        WorkerPlacements wim = PlacementPlanner.targets(SHARE, Policy.WIM, 2, BIND);
        assertThat(wim.keepingCurrent(List.of(Optional.of(ccd1), Optional.empty()))).containsExactly(WorkerPlacement.unbound(0), WorkerPlacement.unbound(1));
    }

    /** No cache information, so no chiplets: the machine is one unit, and the chiplet policies bind all of it. */
    @Test
    void aTopologyWithoutChipletsIsOneUnit()
    {
        Topology two = TestTopologies.twoChiplets();
        Topology none = two.toBuilder().source("synthetic:no-chiplets").caches(List.of()).chiplets(List.of())
                .unknowns(List.of("no L3 information")).build();
        PlacementDomain share = PlacementDomain.of(none);
        assertThat(share.chiplets()).isEmpty();
        assertThat(cpus(PlacementPlanner.targets(share, Policy.WICP_LOCAL, 2, MemoryBinding.off(none)))).containsExactly("0-1", "0-1");
        assertThat(cpus(PlacementPlanner.targets(share, Policy.WIC, 2, MemoryBinding.off(none)))).containsExactly("0", "1");
        assertThat(cpus(PlacementPlanner.targets(share, Policy.ADAPTIVE, 1, MemoryBinding.off(none)).withSpreads(new int[] {1}))).containsExactly("0-1");
        // One unit: a spread grows to 1 at most.
        assertThat(share.maxSpread()).isEqualTo(1);
    }

    /** The widest spread is the share's chiplets: all 16 CCDs of the host, one of a lease. */
    @Test
    void theWidestSpreadIsTheSharesChiplets()
    {
        assertThat(SHARE.maxSpread()).isEqualTo(16);
        assertThat(SHARE.leased(List.of(EPYC.chiplet(3).orElseThrow())).maxSpread()).isEqualTo(1);
        assertThat(HostDivision.bySequenceNumber(SHARE, 2, "3").maxSpread()).isEqualTo(2);
    }

    @Test
    void hostSharesSplitTheNodeShare()
    {
        assertThat(HostDivision.ownsHost(SHARE, 256)).isTrue();
        assertThat(HostDivision.ownsHost(SHARE, 8)).isFalse();
        // 16 CPUs per CCD: 20 cores need two
        assertThat(HostDivision.chipletsFor(SHARE, 20)).isEqualTo(2);
        // executor 3 of two-chiplet executors starts at chiplet 6
        assertThat(HostDivision.bySequenceNumber(SHARE, 2, "3").ids()).containsExactly(6, 7);
        assertThat(HostDivision.bySequenceNumber(SHARE, 2, "3").shareCpus().toList()).isEqualTo("48-63,176-191");
    }

    /**
     * Two sockets whose kernel gives no package id (-1 both), two chiplets each, all memory on one node: wicp-mixed
     * must still alternate sockets, which it can only tell apart by their CPUs.
     */
    @Test
    void packagesWithoutIdsAreStillTwoPackages()
    {
        CpuSet all = CpuSet.range(0, 3);
        List<Core> cores = List.of(new Core(-1, 0, CpuSet.of(0), Optional.empty()), new Core(-1, 1, CpuSet.of(1), Optional.empty()),
                new Core(-1, 0, CpuSet.of(2), Optional.empty()), new Core(-1, 1, CpuSet.of(3), Optional.empty()));
        List<Cache> caches = List.of(0, 1, 2, 3).stream().map(cpu -> new Cache(3, CacheType.UNIFIED, 16L << 20, 64, CpuSet.of(cpu))).toList();
        Topology idless = Topology.builder("synthetic:id-less-packages", all)
                .packages(List.of(new CpuPackage(-1, CpuSet.range(0, 1)), new CpuPackage(-1, CpuSet.range(2, 3))))
                .numaNodes(List.of(NumaNode.of(0, all, 8L << 30, Map.of(0, 10))))
                .caches(caches)
                .cores(cores)
                .chiplets(List.of(new Chiplet(0, -1, 0, CpuSet.of(0), 16L << 20, ChipletBasis.L3), new Chiplet(1, -1, 0, CpuSet.of(1), 16L << 20, ChipletBasis.L3),
                        new Chiplet(2, -1, 0, CpuSet.of(2), 16L << 20, ChipletBasis.L3), new Chiplet(3, -1, 0, CpuSet.of(3), 16L << 20, ChipletBasis.L3)))
                .build();
        WorkerPlacements targets = PlacementPlanner.targets(PlacementDomain.of(idless), Policy.WICP_MIXED, 2, MemoryBinding.off(idless));
        assertThat(cpus(targets)).containsExactly("0", "2");
    }

    @Test
    void theMemoryBindingSaysItsKindAndWhichChipletsHaveANodeOfIt()
    {
        assertThat(BIND.kind()).isEqualTo(MemoryKind.DRAM);
        assertThat(BIND.hasNodeOfKind(0)).isTrue();
        assertThat(BIND.describe()).isEqualTo("node 0 for chiplets 0-7, node 1 for chiplets 8-15");
        // No HBM on this machine: every chiplet keeps its own node, and the shortfall says so.
        MemoryBinding hbm = MemoryBinding.of(EPYC, true, MemoryKind.HBM);
        assertThat(hbm.kind()).isEqualTo(MemoryKind.HBM);
        assertThat(hbm.hasNodeOfKind(0)).isFalse();
        assertThat(hbm.hasNodeOfKind(15)).isFalse();
        assertThat(hbm.shortfall()).hasValue("no hbm NUMA node of known locality is local to any chiplet; their memory stays on their own NUMA node");
    }
}
