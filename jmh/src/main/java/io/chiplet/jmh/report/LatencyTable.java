package io.chiplet.jmh.report;

import io.chiplet.jmh.workload.CpuPair;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The core-to-core latency table and heatmap: one-way latency between CPUs (or chiplets on large machines). */
final class LatencyTable
{
    /** Latency rows carry this parameter; see the core-to-core benchmark. */
    static final String CPU_PAIR = "cpuPair";

    private LatencyTable() {}

    static void latencySection(StringBuilder md, MachineSummary machine, List<JmhResult> rows, String file, Map<String, String> svgs)
    {
        // one "ping" operation is a round trip; half of it is the one-way latency the study's heatmaps show
        Map<CpuPair, Double> oneWay = new LinkedHashMap<>();
        for (JmhResult row : rows) {
            double roundTrip = row.secondaryScore("ping").orElse(row.score());
            oneWay.put(CpuPair.parse(row.params().get(CPU_PAIR)), roundTrip / 2);
        }
        boolean byChiplet = machine.cpus() > CpuPair.MAX_FULL_MATRIX_CPUS;
        TreeSet<Integer> keys = new TreeSet<>();
        Map<List<Integer>, Double> cells = new LinkedHashMap<>();
        for (Map.Entry<CpuPair, Double> entry : oneWay.entrySet()) {
            int a = entry.getKey().first();
            int b = entry.getKey().second();
            if (byChiplet) {
                a = machine.chipletOf(a).orElse(-1);
                b = machine.chipletOf(b).orElse(-1);
                if (a < 0 || b < 0) {
                    continue;
                }
            }
            keys.add(a);
            keys.add(b);
            cells.put(List.of(a, b), entry.getValue());
            cells.put(List.of(b, a), entry.getValue());
        }
        List<Integer> index = new ArrayList<>(keys);
        double[][] matrix = new double[index.size()][index.size()];
        for (double[] row : matrix) {
            Arrays.fill(row, Double.NaN);
        }
        cells.forEach((pair, value) -> matrix[index.indexOf(pair.get(0))][index.indexOf(pair.get(1))] = value);
        List<String> labels = index.stream().map(key -> (byChiplet ? "chiplet " : "CPU ") + key).toList();
        List<String> shortLabels = index.stream().map(key -> (byChiplet ? "C" : "") + key).toList();

        md.append("### Core-to-core latency\n\n");
        md.append("One-way latency (half a compare-and-swap round trip) between two threads on the two CPUs, ")
                .append(byChiplet ? "per chiplet pair (first CPU of each; the diagonal is two CPUs of one chiplet)" : "for every CPU pair")
                .append(machine.pinned() ? "." : "; the threads were **not pinned** in this build, so the scheduler chose their CPUs.").append("\n\n");
        double[] values = oneWay.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
        md.append("| Pairs | Min | Median | Max |\n|---:|---:|---:|---:|\n| ").append(values.length)
                .append(" | ").append(Units.nanos(values[0]))
                .append(" | ").append(Units.nanos(values[values.length / 2]))
                .append(" | ").append(Units.nanos(values[values.length - 1])).append(" |\n\n");
        if (values[0] > 10_000) {
            md.append("Round trips this slow mean the two spinning threads did not run at the same time (too few free CPUs):\n"
                    + "the scheduler's time slice, not the hardware, was measured.\n\n");
        }
        if (index.size() <= 8) {
            md.append("| |");
            labels.forEach(label -> md.append(' ').append(label).append(" |"));
            md.append("\n|---|");
            labels.forEach(label -> md.append("---:|"));
            md.append('\n');
            for (int i = 0; i < index.size(); i++) {
                md.append("| ").append(labels.get(i)).append(" |");
                for (int j = 0; j < index.size(); j++) {
                    md.append(Double.isFinite(matrix[i][j]) ? " " + Units.nanos(matrix[i][j]) + " |" : " – |");
                }
                md.append('\n');
            }
            md.append('\n');
        }
        // the chart's unit is the one that keeps the largest value below 1000, so cells stay legible
        double largest = values[values.length - 1];
        double scale = largest >= 1_000_000 ? 1_000_000 : largest >= 1_000 ? 1_000 : 1;
        String unit = scale == 1_000_000 ? "ms" : scale == 1_000 ? "µs" : "ns";
        double[][] scaled = new double[matrix.length][];
        for (int i = 0; i < matrix.length; i++) {
            scaled[i] = Arrays.stream(matrix[i]).map(value -> value / scale).toArray();
        }
        svgs.put(file, SvgCharts.heatmap("Core-to-core latency, one way (" + unit + ")", unit, shortLabels, scaled));
        md.append("![core-to-core latency](perf/").append(file).append(")\n\n");
    }
}
