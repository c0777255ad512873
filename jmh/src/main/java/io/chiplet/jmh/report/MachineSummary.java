package io.chiplet.jmh.report;

import io.chiplet.jmh.workload.SizeClass;
import io.chiplet.jmh.workload.WorkingSets;
import io.chiplet.jmh.workload.WorkloadTrial;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * The facts about the measured machine the report prints, taken from our own topology.
 *
 * @param chipletOfCpu each allowed CPU's chiplet id, to fold large latency matrices into chiplet pairs
 * @param workingSetBytes the bytes each size class stands for on this machine
 * @param pinned whether the benchmark workers were really pinned
 */
public record MachineSummary(
        String source,
        int cpus,
        int cores,
        int packages,
        int numaNodes,
        int chiplets,
        int l3Instances,
        long chipletL3Bytes,
        long totalL3Bytes,
        boolean l3Known,
        int defaultWorkers,
        Map<Integer, Integer> chipletOfCpu,
        Map<SizeClass, Long> workingSetBytes,
        boolean pinned,
        List<String> unknowns)
{
    public MachineSummary
    {
        requireNonNull(source, "source is null");
        chipletOfCpu = Map.copyOf(chipletOfCpu);
        workingSetBytes = Map.copyOf(workingSetBytes);
        unknowns = List.copyOf(unknowns);
    }

    public static MachineSummary of(Topology topology, boolean pinned)
    {
        requireNonNull(topology, "topology is null");
        WorkingSets sets = WorkingSets.of(topology);
        Map<Integer, Integer> chipletOfCpu = new HashMap<>();
        for (Chiplet chiplet : topology.chiplets()) {
            chiplet.cpus().intersect(topology.allowed()).stream().forEach(cpu -> chipletOfCpu.put(cpu, chiplet.id()));
        }
        Map<SizeClass, Long> bytes = new HashMap<>();
        for (SizeClass sizeClass : SizeClass.values()) {
            bytes.put(sizeClass, sets.bytes(sizeClass));
        }
        return new MachineSummary(
                topology.source(),
                topology.allowed().size(),
                topology.cores().size(),
                topology.packages().size(),
                topology.numaNodes().size(),
                topology.chiplets().size(),
                topology.cachesOfLevel(3).size(),
                sets.chipletL3Bytes(),
                sets.totalL3Bytes(),
                sets.l3Known(),
                WorkloadTrial.defaultWorkers(topology),
                chipletOfCpu,
                bytes,
                pinned,
                topology.unknowns());
    }

    /** One L3 (or none known): every placement shares the same cache, so chiplet effects cannot show. */
    public boolean singleL3()
    {
        return l3Instances <= 1;
    }

    public OptionalInt chipletOf(int cpu)
    {
        Integer chiplet = chipletOfCpu.get(cpu);
        return chiplet == null ? OptionalInt.empty() : OptionalInt.of(chiplet);
    }
}
