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
}
