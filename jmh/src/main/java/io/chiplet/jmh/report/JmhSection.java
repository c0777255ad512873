package io.chiplet.jmh.report;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * One run's section of the report from JMH's results: the machine, the workload tables, the core-to-core latency and
 * the micro-benchmarks, with the SVG files (name to content) it links to. Pure, so tests can check it without a machine.
 */
public record JmhSection(String name, String markdown, Map<String, String> svgs)
{
    public JmhSection
    {
        requireNonNull(name, "name is null");
        requireNonNull(markdown, "markdown is null");
        svgs = Map.copyOf(svgs);
    }

    /** The section's markdown and charts; pure, so tests can check it without a machine. */
    public static JmhSection render(String name, MachineSummary machine, List<JmhResult> results, Instant when, Optional<String> runNote)
    {
        requireNonNull(name, "name is null");
        requireNonNull(machine, "machine is null");
        String slug = ReportDocument.slug(name);
        StringBuilder md = new StringBuilder();
        Map<String, String> svgs = new LinkedHashMap<>();
        md.append("## ").append(name).append("\n\n");
        md.append("Measured ").append(when.truncatedTo(ChronoUnit.SECONDS)).append(runNote.map(note -> "; " + note).orElse("")).append(".\n\n");
        MachineTable.machineSection(md, machine);

        List<JmhResult> workload = results.stream().filter(r -> r.params().containsKey(WorkloadTables.PLACEMENT) && r.params().containsKey(WorkloadTables.WORKING_SET)).toList();
        List<JmhResult> latency = results.stream().filter(r -> r.params().containsKey(LatencyTable.CPU_PAIR)).toList();
        List<JmhResult> micro = results.stream().filter(r -> !workload.contains(r) && !latency.contains(r)).toList();

        md.append("### Workloads\n\n");
        if (workload.isEmpty()) {
            md.append("No workload results in this run.\n\n");
        }
        else {
            md.append("Each cell: throughput relative to `wim` at the same working set, then the absolute score ± JMH's 99.9% error.\n\n");
        }
        Map<String, List<JmhResult>> byKernel = workload.stream()
                .collect(Collectors.groupingBy(WorkloadTables::kernelName, TreeMap::new, Collectors.toList()));
        for (Map.Entry<String, List<JmhResult>> kernel : byKernel.entrySet()) {
            String file = slug + "-" + ReportDocument.slug(kernel.getKey()) + ".svg";
            WorkloadTables.kernelSection(md, kernel.getKey(), kernel.getValue(), file, svgs);
        }

        if (!latency.isEmpty()) {
            LatencyTable.latencySection(md, machine, latency, slug + "-core-to-core.svg", svgs);
        }

        md.append("### Micro-benchmarks\n\n");
        if (micro.isEmpty()) {
            md.append("No micro-benchmark results in this run.\n");
        }
        else {
            md.append("| Benchmark | Parameters | Mode | Score | Error | Unit |\n|---|---|---|---:|---:|---|\n");
            micro.stream()
                    .sorted(Comparator.comparing(JmhResult::benchmark).thenComparing(r -> r.params().toString()))
                    .forEach(r -> md.append("| ").append(r.className()).append('.').append(r.method())
                            .append(" | ").append(r.params().isEmpty() ? "" : new TreeMap<>(r.params()).entrySet().stream()
                                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")))
                            .append(" | ").append(r.mode())
                            .append(" | ").append(Units.number(r.score()))
                            .append(" | ").append(Double.isFinite(r.scoreError()) ? "± " + Units.number(r.scoreError()) : "")
                            .append(" | ").append(r.unit()).append(" |\n"));
        }
        return new JmhSection(name, md.toString(), svgs);
    }
}
