package io.chiplet.jmh.report;

import io.chiplet.jmh.workload.SizeClass;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The section's table of the machine the run measured, and what its topology lets the numbers show. */
final class MachineTable
{
    private MachineTable() {}

    static void machineSection(StringBuilder md, MachineSummary machine)
    {
        md.append("### Machine\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| Topology source | `").append(machine.source()).append("` |\n");
        md.append("| CPUs (allowed) / cores | ").append(machine.cpus()).append(" / ").append(machine.cores()).append(" |\n");
        md.append("| Packages / NUMA nodes | ").append(machine.packages()).append(" / ").append(machine.numaNodes()).append(" |\n");
        md.append("| Chiplets | ").append(machine.chiplets()).append(" |\n");
        md.append("| L3 | ").append(machine.l3Known()
                ? machine.l3Instances() + " instance(s); " + Units.bytes(machine.chipletL3Bytes()) + " per chiplet, " + Units.bytes(machine.totalL3Bytes()) + " in all"
                : "not reported; sizes assume " + Units.bytes(machine.chipletL3Bytes())).append(" |\n");
        md.append("| Working sets | ").append(Arrays.stream(SizeClass.values())
                .map(s -> s.label() + " " + Units.bytes(machine.workingSetBytes().getOrDefault(s, 0L)))
                .collect(Collectors.joining(", "))).append(" |\n");
        md.append("| Workers per kernel | ").append(machine.defaultWorkers()).append(" (the CPUs of one chiplet) |\n");
        md.append("| Threads pinned | ").append(machine.pinned() ? "yes" : "no: the binding API was not wired into this build, so every placement ran wherever the scheduler put its threads").append(" |\n\n");
        if (machine.singleL3()) {
            md.append("> **This machine has a single L3 cache.** Every placement shares that one cache and one memory path, so the\n"
                    + "> policies cannot show chiplet effects here: differences between them are overhead and noise. The numbers check\n"
                    + "> that the suite runs; run it on a machine with several L3 groups (an EPYC, a Xeon in SNC mode) to see placement matter.\n\n");
        }
        if (!machine.unknowns().isEmpty()) {
            md.append("Topology caveats: ").append(String.join("; ", machine.unknowns())).append(".\n\n");
        }
    }
}
