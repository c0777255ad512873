package io.chiplet.topology;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChipletDerivationTest
{
    private static final CpuSet ONLINE = CpuSet.range(0, 15);
    private static final List<CpuPackage> ONE_PACKAGE = List.of(new CpuPackage(0, ONLINE));

    private static NumaNode node(int id, CpuSet cpus)
    {
        return NumaNode.of(id, cpus, 1L << 30, Map.of());
    }

    private static Cache l3(CpuSet cpus, long size)
    {
        return new Cache(3, CacheType.UNIFIED, size, 64, cpus);
    }

    /** Cores of two SMT threads numbered like x86: core i is {i, i + 8}. */
    private static List<Core> smtCores()
    {
        List<Core> cores = new ArrayList<>();
        for (int core = 0; core < 8; core++) {
            cores.add(new Core(0, core, CpuSet.of(core, core + 8), Optional.empty()));
        }
        return cores;
    }

    @Test
    void eachL3InstanceIsAChiplet()
    {
        List<Chiplet> chiplets = ChipletDerivation.derive(ONLINE, ONE_PACKAGE, List.of(), List.of(), List.of(node(0, ONLINE)),
                List.of(l3(CpuSet.parseList("0-3,8-11"), 32 << 20), l3(CpuSet.parseList("4-7,12-15"), 32 << 20)), smtCores(), 0);

        assertThat(chiplets).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.parseList("0-3,8-11"), 32 << 20, ChipletBasis.L3),
                new Chiplet(1, 0, 0, CpuSet.parseList("4-7,12-15"), 32 << 20, ChipletBasis.L3));
    }

    @Test
    void nodeSmallerThanTheL3SplitsIt()
    {
        List<Chiplet> chiplets = ChipletDerivation.derive(ONLINE, ONE_PACKAGE, List.of(), List.of(),
                List.of(node(0, CpuSet.parseList("0-3,8-11")), node(1, CpuSet.parseList("4-7,12-15")), node(2, CpuSet.empty())),
                List.of(l3(ONLINE, 64 << 20)), smtCores(), 0);

        assertThat(chiplets).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.parseList("0-3,8-11"), 32 << 20, ChipletBasis.L3_NUMA),
                new Chiplet(1, 0, 1, CpuSet.parseList("4-7,12-15"), 32 << 20, ChipletBasis.L3_NUMA));
    }

    @Test
    void chipletsNeverCrossAPackage()
    {
        List<CpuPackage> packages = List.of(new CpuPackage(0, CpuSet.range(0, 7)), new CpuPackage(1, CpuSet.range(8, 15)));
        List<Chiplet> chiplets = ChipletDerivation.derive(ONLINE, packages, List.of(), List.of(), List.of(node(0, ONLINE)),
                List.of(l3(ONLINE, 16 << 20)), List.of(), 0);

        assertThat(chiplets).extracting(Chiplet::cpus).containsExactly(CpuSet.range(0, 7), CpuSet.range(8, 15));
        assertThat(chiplets).extracting(Chiplet::packageId).containsExactly(0, 1);
    }

    @Test
    void withoutL3SeveralNodesPerPackageMakeNumaChiplets()
    {
        List<Chiplet> chiplets = ChipletDerivation.derive(ONLINE, ONE_PACKAGE, List.of(), List.of(),
                List.of(node(0, CpuSet.range(0, 7)), node(1, CpuSet.range(8, 15))), List.of(), List.of(), 0);

        assertThat(chiplets).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.range(0, 7), 0, ChipletBasis.NUMA),
                new Chiplet(1, 0, 1, CpuSet.range(8, 15), 0, ChipletBasis.NUMA));
    }

    @Test
    void withoutL3InformativeClustersThenDiesThenThePackage()
    {
        List<Cluster> clusters = List.of(new Cluster(0, 0, CpuSet.range(0, 3)), new Cluster(0, 1, CpuSet.range(4, 7)),
                new Cluster(0, 2, CpuSet.range(8, 11)), new Cluster(0, 3, CpuSet.range(12, 15)));
        List<Die> dies = List.of(new Die(0, 0, CpuSet.range(0, 7)), new Die(0, 1, CpuSet.range(8, 15)));
        List<NumaNode> nodes = List.of(node(0, ONLINE));

        assertThat(ChipletDerivation.derive(ONLINE, ONE_PACKAGE, dies, clusters, nodes, List.of(), List.of(), 0))
                .extracting(Chiplet::basis).containsExactly(ChipletBasis.CLUSTER, ChipletBasis.CLUSTER, ChipletBasis.CLUSTER, ChipletBasis.CLUSTER);
        assertThat(ChipletDerivation.derive(ONLINE, ONE_PACKAGE, dies, List.of(), nodes, List.of(), List.of(), 0))
                .extracting(Chiplet::cpus).containsExactly(CpuSet.range(0, 7), CpuSet.range(8, 15));

        // a cluster per CPU says nothing about locality
        List<Cluster> singles = ONLINE.stream().mapToObj(cpu -> new Cluster(0, cpu, CpuSet.of(cpu))).toList();
        assertThat(ChipletDerivation.derive(ONLINE, ONE_PACKAGE, List.of(new Die(0, 0, ONLINE)), singles, nodes, List.of(), List.of(), 0))
                .containsExactly(new Chiplet(0, 0, 0, ONLINE, 0, ChipletBasis.PACKAGE));
    }

    @Test
    void virtualChipletsGroupWholeCoresAndShareTheL3()
    {
        List<Chiplet> chiplets = ChipletDerivation.derive(ONLINE, ONE_PACKAGE, List.of(), List.of(), List.of(node(0, ONLINE)),
                List.of(l3(ONLINE, 30 << 20)), smtCores(), 3);

        assertThat(chiplets).containsExactly(
                new Chiplet(0, 0, 0, CpuSet.parseList("0-2,8-10"), (30L << 20) * 6 / 16, ChipletBasis.VIRTUAL),
                new Chiplet(1, 0, 0, CpuSet.parseList("3-5,11-13"), (30L << 20) * 6 / 16, ChipletBasis.VIRTUAL),
                new Chiplet(2, 0, 0, CpuSet.parseList("6-7,14-15"), (30L << 20) * 4 / 16, ChipletBasis.VIRTUAL));
    }

    @Test
    void onlyOnlineCpusArePartitioned()
    {
        CpuSet online = CpuSet.range(2, 7);
        List<Chiplet> chiplets = ChipletDerivation.derive(online, List.of(new CpuPackage(0, online)), List.of(), List.of(),
                List.of(node(0, CpuSet.range(0, 7))), List.of(l3(CpuSet.range(0, 7), 8 << 20)), List.of(), 0);

        assertThat(chiplets).containsExactly(new Chiplet(0, 0, 0, online, 8 << 20, ChipletBasis.L3));
    }

    @Test
    void negativeVirtualCoresAreRejected()
    {
        assertThatThrownBy(() -> ChipletDerivation.derive(ONLINE, ONE_PACKAGE, List.of(), List.of(), List.of(), List.of(), List.of(), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("virtualChipletCores");
    }
}
