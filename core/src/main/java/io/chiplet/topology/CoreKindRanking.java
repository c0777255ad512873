package io.chiplet.topology;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

/**
 * Groups CPUs into kinds of core and ranks the kinds the way hwloc 2.x does (cpukinds.c and the Linux backend),
 * so that our kinds agree with {@code lstopo}'s:
 * <ul>
 * <li>CPUs are alike when they agree on {@code cpu_capacity}, the Intel core type (from
 *     {@code /sys/devices/cpu_core|cpu_atom/cpus}), the ARM core design (MIDR implementer and part, which hwloc
 *     2.9's Linux backend does not read), {@code base_frequency} and {@code cpuinfo_max_freq}. As in
 *     hwloc, maximum frequencies of CPUs with the same base frequency are merged when they differ by less than
 *     10%: Turbo Boost Max 3.0 gives a few "favoured" cores a slightly higher turbo, which is not another kind.</li>
 * <li>Kinds are ranked by capacity when every kind has one (the kernel's own performance scale, used by hwloc
 *     as a forced efficiency), else by core type then frequency, else by frequency alone: base frequency when
 *     every kind has one, else maximum frequency, else the ARM designs' known class (little, big, prime). A ranking
 *     that leaves two kinds tied is not a ranking; the kinds
 *     are then listed by first CPU and the tie is reported as unknown.</li>
 * </ul>
 * Pure: facts in, kinds out.
 */
final class CoreKindRanking
{
    /** hwloc's default tolerance for merging maximum frequencies of CPUs with one base frequency. */
    private static final int MAX_FREQUENCY_ADJUST_PERCENT = 10;

    /** Intel core type as hwloc encodes it: Atom below Core. */
    enum IntelCoreType
    {
        UNKNOWN, ATOM, CORE
    }

    /** What one online CPU says about its performance; 0 or empty for facts the machine did not give. */
    record CpuPerformance(int cpu, OptionalLong capacity, IntelCoreType coreType, long baseFrequencyKhz, long maxFrequencyKhz, Optional<ArmCorePart> armPart)
    {
        CpuPerformance(int cpu, OptionalLong capacity, IntelCoreType coreType, long baseFrequencyKhz, long maxFrequencyKhz)
        {
            this(cpu, capacity, coreType, baseFrequencyKhz, maxFrequencyKhz, Optional.empty());
        }
    }

    record Ranked(List<CoreKind> kinds, Optional<String> unknown) {}

    private record Signature(OptionalLong capacity, IntelCoreType coreType, long baseFrequencyKhz, long maxFrequencyKhz, Optional<ArmCorePart> armPart) {}

    private CoreKindRanking() {}

    /** Kinds of core, most performant first; empty when all CPUs are alike. */
    static Ranked rank(List<CpuPerformance> cpus)
    {
        Map<Long, long[]> maxRangeByBase = new LinkedHashMap<>();
        for (CpuPerformance cpu : cpus) {
            if (cpu.baseFrequencyKhz() > 0 && cpu.maxFrequencyKhz() > 0) {
                long[] range = maxRangeByBase.computeIfAbsent(cpu.baseFrequencyKhz(), key -> new long[] {Long.MAX_VALUE, 0});
                range[0] = Math.min(range[0], cpu.maxFrequencyKhz());
                range[1] = Math.max(range[1], cpu.maxFrequencyKhz());
            }
        }

        Map<Signature, BitSet> groups = new LinkedHashMap<>();
        for (CpuPerformance cpu : cpus) {
            long max = cpu.maxFrequencyKhz();
            long[] range = cpu.baseFrequencyKhz() > 0 ? maxRangeByBase.get(cpu.baseFrequencyKhz()) : null;
            if (range != null && max > 0 && (range[1] - range[0]) * 100 < (long) MAX_FREQUENCY_ADJUST_PERCENT * range[0]) {
                max = range[0];
            }
            Signature signature = new Signature(cpu.capacity(), cpu.coreType(), cpu.baseFrequencyKhz(), max, cpu.armPart());
            groups.computeIfAbsent(signature, key -> new BitSet()).set(cpu.cpu());
        }
        if (groups.size() < 2) {
            return new Ranked(List.of(), Optional.empty());
        }

        List<Map.Entry<Signature, BitSet>> kinds = new ArrayList<>(groups.entrySet());
        kinds.sort(Comparator.comparingInt(entry -> entry.getValue().nextSetBit(0)));
        Optional<ToLongFunction<Signature>> ranking = ranking(kinds.stream().map(Map.Entry::getKey).toList());
        Optional<String> unknown = Optional.empty();
        if (ranking.isPresent()) {
            ToLongFunction<Signature> value = ranking.get();
            kinds.sort(Comparator.comparingLong((Map.Entry<Signature, BitSet> entry) -> value.applyAsLong(entry.getKey())).reversed());
        }
        else {
            unknown = Optional.of("kinds of core: " + kinds.size() + " kinds differ but neither cpu_capacity, core type, frequencies nor known ARM designs ("
                    + kinds.stream().map(entry -> entry.getKey().armPart().map(ArmCorePart::describe).orElse("none")).collect(java.util.stream.Collectors.joining(", "))
                    + ") rank them; listed by first CPU");
        }

        List<CoreKind> result = new ArrayList<>();
        for (int rank = 0; rank < kinds.size(); rank++) {
            Optional<String> model = kinds.get(rank).getKey().armPart().flatMap(ArmCorePart::design).map(ArmCorePart.Design::name);
            result.add(new CoreKind(name(rank, kinds.size()), rank, CpuSet.fromBitSet(kinds.get(rank).getValue()), model));
        }
        return new Ranked(List.copyOf(result), unknown);
    }

    private static Optional<ToLongFunction<Signature>> ranking(List<Signature> kinds)
    {
        List<ToLongFunction<Signature>> candidates = new ArrayList<>();
        if (kinds.stream().allMatch(kind -> kind.capacity().isPresent())) {
            candidates.add(kind -> kind.capacity().getAsLong());
        }
        boolean allBase = kinds.stream().allMatch(kind -> kind.baseFrequencyKhz() > 0);
        boolean allMax = kinds.stream().allMatch(kind -> kind.maxFrequencyKhz() > 0);
        ToLongFunction<Signature> frequency = allBase ? Signature::baseFrequencyKhz : Signature::maxFrequencyKhz;
        if (kinds.stream().allMatch(kind -> kind.coreType() != IntelCoreType.UNKNOWN)) {
            if (allBase || allMax) {
                // frequencies are in kHz, well below 2^40: the core type dominates, as in hwloc's (type << 20) + MHz
                candidates.add(kind -> ((long) kind.coreType().ordinal() << 40) + frequency.applyAsLong(kind));
            }
            candidates.add(kind -> kind.coreType().ordinal());
        }
        if (allBase || allMax) {
            candidates.add(frequency);
        }
        if (kinds.stream().allMatch(kind -> kind.armPart().flatMap(ArmCorePart::design).isPresent())) {
            candidates.add(kind -> kind.armPart().flatMap(ArmCorePart::design).orElseThrow().performanceClass());
        }
        for (ToLongFunction<Signature> candidate : candidates) {
            if (kinds.stream().mapToLong(candidate).distinct().count() == kinds.size()) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static String name(int rank, int count)
    {
        if (count == 2) {
            return rank == 0 ? CoreKind.PERFORMANCE : CoreKind.EFFICIENCY;
        }
        return "kind-" + rank;
    }
}
