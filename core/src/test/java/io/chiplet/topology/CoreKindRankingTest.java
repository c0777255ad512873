package io.chiplet.topology;

import io.chiplet.topology.CoreKindRanking.CpuPerformance;
import io.chiplet.topology.CoreKindRanking.IntelCoreType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class CoreKindRankingTest
{
    private static List<CpuPerformance> cpus(int from, int to, OptionalLong capacity, IntelCoreType type, long base, long max)
    {
        List<CpuPerformance> cpus = new ArrayList<>();
        for (int cpu = from; cpu <= to; cpu++) {
            cpus.add(new CpuPerformance(cpu, capacity, type, base, max));
        }
        return cpus;
    }

    private static List<CpuPerformance> concat(List<CpuPerformance> first, List<CpuPerformance> second)
    {
        List<CpuPerformance> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    @Test
    void identicalCpusAreOneKindAndReportNone()
    {
        assertThat(CoreKindRanking.rank(cpus(0, 7, OptionalLong.empty(), IntelCoreType.UNKNOWN, 2_000_000, 3_500_000)).kinds()).isEmpty();
    }

    @Test
    void turboBoostMaxFavouredCoresAreNotAnotherKind()
    {
        // same base frequency, maximum 5.0 vs 5.2 GHz (4%): one kind, as hwloc says
        List<CpuPerformance> cpus = concat(cpus(0, 3, OptionalLong.empty(), IntelCoreType.UNKNOWN, 1_900_000, 5_000_000),
                cpus(4, 5, OptionalLong.empty(), IntelCoreType.UNKNOWN, 1_900_000, 5_200_000));

        assertThat(CoreKindRanking.rank(cpus).kinds()).isEmpty();
    }

    @Test
    void withoutBaseFrequencyDifferentMaximaAreDifferentKinds()
    {
        List<CpuPerformance> cpus = concat(cpus(0, 3, OptionalLong.empty(), IntelCoreType.UNKNOWN, 0, 5_000_000),
                cpus(4, 5, OptionalLong.empty(), IntelCoreType.UNKNOWN, 0, 5_200_000));

        assertThat(CoreKindRanking.rank(cpus).kinds()).containsExactly(
                new CoreKind(CoreKind.PERFORMANCE, 0, CpuSet.range(4, 5)),
                new CoreKind(CoreKind.EFFICIENCY, 1, CpuSet.range(0, 3)));
    }

    @Test
    void capacityOutranksFrequency()
    {
        // hwloc treats cpu_capacity as the kernel's own efficiency ranking
        List<CpuPerformance> cpus = concat(cpus(0, 3, OptionalLong.of(500), IntelCoreType.UNKNOWN, 1_900_000, 5_000_000),
                cpus(4, 7, OptionalLong.of(1024), IntelCoreType.UNKNOWN, 1_400_000, 3_900_000));

        assertThat(CoreKindRanking.rank(cpus).kinds()).extracting(CoreKind::cpus).containsExactly(CpuSet.range(4, 7), CpuSet.range(0, 3));
    }

    @Test
    void intelCoreOutranksAtomWhateverTheFrequency()
    {
        List<CpuPerformance> cpus = concat(cpus(0, 3, OptionalLong.empty(), IntelCoreType.ATOM, 2_000_000, 4_000_000),
                cpus(4, 7, OptionalLong.empty(), IntelCoreType.CORE, 1_500_000, 4_000_000));

        assertThat(CoreKindRanking.rank(cpus).kinds()).containsExactly(
                new CoreKind(CoreKind.PERFORMANCE, 0, CpuSet.range(4, 7)),
                new CoreKind(CoreKind.EFFICIENCY, 1, CpuSet.range(0, 3)));
    }

    @Test
    void threeTiersAreNumberedAndTiesAreReportedAsUnknown()
    {
        List<CpuPerformance> tiers = concat(concat(cpus(0, 1, OptionalLong.of(1024), IntelCoreType.UNKNOWN, 0, 0),
                cpus(2, 5, OptionalLong.of(800), IntelCoreType.UNKNOWN, 0, 0)), cpus(6, 7, OptionalLong.of(300), IntelCoreType.UNKNOWN, 0, 0));
        assertThat(CoreKindRanking.rank(tiers).kinds()).extracting(CoreKind::name).containsExactly("kind-0", "kind-1", "kind-2");

        // different core types, no capacity, no frequency: the types alone rank them
        List<CpuPerformance> typesOnly = concat(cpus(0, 1, OptionalLong.empty(), IntelCoreType.ATOM, 0, 0), cpus(2, 3, OptionalLong.empty(), IntelCoreType.CORE, 0, 0));
        assertThat(CoreKindRanking.rank(typesOnly).kinds()).extracting(CoreKind::cpus).containsExactly(CpuSet.range(2, 3), CpuSet.range(0, 1));

        // two kinds differing only in a fact some lack: no ranking possible
        List<CpuPerformance> unrankable = concat(cpus(0, 1, OptionalLong.of(1024), IntelCoreType.UNKNOWN, 0, 0), cpus(2, 3, OptionalLong.empty(), IntelCoreType.UNKNOWN, 0, 0));
        CoreKindRanking.Ranked ranked = CoreKindRanking.rank(unrankable);
        assertThat(ranked.kinds()).extracting(CoreKind::cpus).containsExactly(CpuSet.range(0, 1), CpuSet.range(2, 3));
        assertThat(ranked.unknown()).hasValueSatisfying(unknown -> assertThat(unknown).startsWith("kinds of core: 2 kinds differ"));
    }

    private static List<CpuPerformance> arm(int from, int to, OptionalLong capacity, long max, String midr)
    {
        List<CpuPerformance> cpus = new ArrayList<>();
        for (int cpu = from; cpu <= to; cpu++) {
            cpus.add(new CpuPerformance(cpu, capacity, IntelCoreType.UNKNOWN, 0, max, java.util.Optional.of(ArmCorePart.parseMidr("midr_el1", midr))));
        }
        return cpus;
    }

    @Test
    void armDesignsSeparateAndRankKindsWhenNothingElseDoes()
    {
        // A55 + A76 + X1 with no capacity and no cpufreq: three kinds, prime first
        List<CpuPerformance> triCluster = concat(concat(arm(0, 3, OptionalLong.empty(), 0, "0x00000000412fd050"),
                arm(4, 6, OptionalLong.empty(), 0, "0x00000000414fd0b0")), arm(7, 7, OptionalLong.empty(), 0, "0x00000000411fd440"));
        CoreKindRanking.Ranked ranked = CoreKindRanking.rank(triCluster);
        assertThat(ranked.kinds()).extracting(CoreKind::cpus).containsExactly(CpuSet.of(7), CpuSet.range(4, 6), CpuSet.range(0, 3));
        assertThat(ranked.kinds()).extracting(kind -> kind.model().orElseThrow()).containsExactly("Cortex-X1", "Cortex-A76", "Cortex-A55");
        assertThat(ranked.unknown()).isEmpty();

        // another revision of one design is not another kind
        List<CpuPerformance> revisions = concat(arm(0, 1, OptionalLong.empty(), 0, "0x00000000410fd0b0"), arm(2, 3, OptionalLong.empty(), 0, "0x00000000414fd0b1"));
        assertThat(CoreKindRanking.rank(revisions).kinds()).isEmpty();
    }

    @Test
    void capacityAndFrequencyStillOutrankArmDesignsAndUnknownPartsStayUnranked()
    {
        // the kernel's capacity says the A55s are faster here (an odd board, but the kernel's scale wins, as in hwloc)
        List<CpuPerformance> byCapacity = concat(arm(0, 1, OptionalLong.of(1024), 0, "0x00000000412fd050"), arm(2, 3, OptionalLong.of(512), 0, "0x00000000414fd0b0"));
        assertThat(CoreKindRanking.rank(byCapacity).kinds()).extracting(CoreKind::cpus).containsExactly(CpuSet.range(0, 1), CpuSet.range(2, 3));

        // two parts this table does not know: two kinds, listed by first CPU, and said so
        List<CpuPerformance> unknownParts = concat(arm(0, 1, OptionalLong.empty(), 0, "0x00000000c10f0010"), arm(2, 3, OptionalLong.empty(), 0, "0x00000000c10f0020"));
        CoreKindRanking.Ranked ranked = CoreKindRanking.rank(unknownParts);
        assertThat(ranked.kinds()).extracting(CoreKind::cpus).containsExactly(CpuSet.range(0, 1), CpuSet.range(2, 3));
        assertThat(ranked.kinds()).allSatisfy(kind -> assertThat(kind.model()).isEmpty());
        assertThat(ranked.unknown()).hasValueSatisfying(unknown -> assertThat(unknown).contains("ARM part 0xc1:0x001, ARM part 0xc1:0x002"));
    }

    @Test
    void aMidrValueIsHexDigitsAfter0xOnly()
    {
        assertThat(ArmCorePart.parseMidr("f", "0x00000000414fd0b0\n\0junk").design().orElseThrow().name()).isEqualTo("Cortex-A76");
        for (String bad : new String[] {"", "0x", "414fd0b0", "0x41\u0663fd0b0", "0x0000000000000000", "0x1234567890abcdef0", "0xg"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ArmCorePart.parseMidr("cpu0/regs/identification/midr_el1", bad))
                    .isInstanceOf(TopologyException.class).hasMessageStartingWith("cpu0/regs/identification/midr_el1: expected a MIDR");
        }
    }
}
