package io.chiplet.cli;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.CpuSet;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.chiplet.topology.HandBuiltTopologies.cgroupRestricted;
import static io.chiplet.topology.HandBuiltTopologies.dualEpycMilan;
import static io.chiplet.topology.HandBuiltTopologies.hybridLaptop;
import static io.chiplet.topology.HandBuiltTopologies.snc2Interleaved;
import static io.chiplet.topology.HandBuiltTopologies.tiny;
import static org.assertj.core.api.Assertions.assertThat;

class TestTopologyText
{
    @Test
    void hybridLaptopShowsKindsOfCore()
    {
        assertThat(TopologyText.render(hybridLaptop())).isEqualTo("""
                sysfs:/tmp/raptorlake  20 CPUs online 0-19, all allowed
                1 package, 1 NUMA node, 1 chiplet (by l3), 14 cores (6 with 2 threads)
                kinds of core: performance 0-11, efficiency 12-19

                package 0  CPUs 0-19
                  NUMA node 0  CPUs 0-19  memory 32 GiB  distances 0:10
                    chiplet 0  L3 24 MiB  14 cores  6 performance + 8 efficiency  CPUs 0-19
                """);
    }

    @Test
    void dualEpycFitsOnOneScreen()
    {
        String text = TopologyText.render(dualEpycMilan());
        List<String> lines = text.lines().toList();

        assertThat(lines).hasSizeLessThanOrEqualTo(2 + 2 * (1 + 1 + 1 + 8));
        assertThat(lines).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
        assertThat(lines.getFirst()).isEqualTo("sysfs:/  256 CPUs online 0-255, all allowed");
        assertThat(lines.get(1)).isEqualTo("2 packages, 2 NUMA nodes, 16 chiplets (by l3), 128 cores, 2 threads each");
        assertThat(lines).contains(
                "package 1  CPUs 64-127,192-255",
                "  NUMA node 1  CPUs 64-127,192-255  memory 256 GiB  distances 0:32 1:10",
                "    chiplet  0  L3 32 MiB  8 cores  CPUs 0-7,128-135",
                "    chiplet 15  L3 32 MiB  8 cores  CPUs 120-127,248-255");
        // Chiplets appear under their package, in order.
        assertThat(text.indexOf("chiplet  7")).isLessThan(text.indexOf("package 1")).isLessThan(text.indexOf("chiplet  8"));
    }

    @Test
    void sncNodesNestUnderTheirPackageWithInterleavedCpusCompressed()
    {
        List<String> lines = TopologyText.render(snc2Interleaved()).lines().toList();

        assertThat(lines).containsSubsequence(
                "package 0  CPUs 0,2,..,30",
                "  NUMA node 0  CPUs 0,2,..,14  memory 48 GiB  distances 0:10 1:11 2:21 3:21 4:30",
                "    chiplet 0  L3 11 MiB  8 cores  CPUs 0,2,..,14",
                "  NUMA node 1  CPUs 16,18,..,30  memory 48 GiB  distances 0:11 1:10 2:21 3:21 4:30",
                "    chiplet 2  L3 11 MiB  8 cores  CPUs 16,18,..,30",
                "package 1  CPUs 1,3,..,31",
                "  NUMA node 2  CPUs 1,3,..,15  memory 48 GiB  distances 0:21 1:21 2:10 3:11 4:30",
                "    chiplet 1  L3 11 MiB  8 cores  CPUs 1,3,..,15",
                "memory without CPUs",
                "  NUMA node 4  memory 128 GiB  distances 0:30 1:30 2:30 3:30 4:10");
        assertThat(lines.get(1)).isEqualTo("2 packages, 5 NUMA nodes, 4 chiplets (by l3+numa), 32 cores");
    }

    @Test
    void marksWhatTheCgroupDisallowsAndOfflineCpus()
    {
        List<String> lines = TopologyText.render(cgroupRestricted()).lines().toList();

        assertThat(lines.getFirst()).isEqualTo("sysfs:/snapshots/32amd64-4s2n4c-cgroup  31 CPUs online 0-30, offline 31, 12 allowed 8-15,24-27");
        assertThat(lines).contains(
                "package 0  CPUs 0-7  [not allowed]",
                "    chiplet 0  L3 6 MiB  4 cores  CPUs 0-3  [not allowed]",
                "package 1  CPUs 8-15",
                "    chiplet 2  L3 6 MiB  4 cores  CPUs 8-11",
                "package 3  CPUs 24-30  [not allowed: 28-30]",
                "    chiplet 6  L3 6 MiB  4 cores  CPUs 24-27",
                "    chiplet 7  L3 6 MiB  3 cores  CPUs 28-30  [not allowed]");
        assertThat(lines).filteredOn(line -> line.startsWith("    chiplet") && !line.contains("not allowed"))
                .extracting(line -> line.substring(0, 13))
                .containsExactly("    chiplet 2", "    chiplet 3", "    chiplet 6");
    }

    @Test
    void partlyAllowedChipletListsTheDisallowedCpusAndUnknownsAreShown()
    {
        String text = TopologyText.render(tiny());

        assertThat(text).contains("    chiplet 0  L3 16 MiB  2 cores  CPUs 0-3  [not allowed: 2-3]\n");
        assertThat(text).contains("  NUMA node 1  memory unknown  distances 0:20 1:10\n");
        assertThat(text).endsWith("\nunknown: no memory size for NUMA node 1\n");
    }

    @Test
    void cpusInNoNumaNode()
    {
        Topology base = tiny();
        Chiplet chiplet = base.chiplets().getFirst();
        Topology withoutNode = base.toBuilder().numaNodes(List.of())
                .chiplets(List.of(new Chiplet(0, 0, -1, chiplet.cpus(), chiplet.l3Bytes(), chiplet.basis()))).build();

        assertThat(TopologyText.render(withoutNode)).contains("\n  no NUMA node  CPUs 0-3  [not allowed: 2-3]\n");
    }

    @Test
    void cpulistCompression()
    {
        assertThat(TopologyText.cpus(CpuSet.empty())).isEmpty();
        assertThat(TopologyText.cpus(CpuSet.parseList("0-7,128-135"))).isEqualTo("0-7,128-135");
        assertThat(TopologyText.cpus(CpuSet.parseList("0,2,4"))).isEqualTo("0,2,4");
        assertThat(TopologyText.cpus(CpuSet.parseList("0,2,4,6,7,8,9,20"))).isEqualTo("0,2,..,6,7-9,20");
        assertThat(TopologyText.cpus(CpuSet.parseList("0,4,8,12,100,102,104,106"))).isEqualTo("0,4,..,12,100,102,..,106");
        assertThat(TopologyText.cpus(CpuSet.parseList("5"))).isEqualTo("5");
    }
}
