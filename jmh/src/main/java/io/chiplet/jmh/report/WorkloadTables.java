package io.chiplet.jmh.report;

import io.chiplet.jmh.workload.SizeClass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeSet;

/**
 * The workload kernels' tables and charts: per kernel, each placement policy's throughput at each working-set size,
 * relative to {@code wim} (one worker instance for the whole machine).
 */
final class WorkloadTables
{
    /** Workload rows carry these parameters; see the workload benchmarks. */
    static final String PLACEMENT = "placement";
    static final String WORKING_SET = "workingSet";
    static final String WORKERS = "workers";

    private static final List<String> POLICY_ORDER = List.of("wim", "win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive");
    private static final String BASELINE = "wim";
    /** What one operation of each workload kernel is, so that the absolute scores can be read. */
    private static final Map<String, String> KERNEL_NOTES = Map.of(
            "Stream.copy", "one operation: every worker copies its slice once (c = a; two of the three arrays the size counts)",
            "Stream.triad", "one operation: every worker computes a = b + 3c over its slice once",
            "HashJoin.buildAndProbe", "one operation: every worker radix-partitions, builds and probes its slice of the join",
            "GroupBy.aggregate", "one operation: every worker aggregates its rows (four rows a group) into its own table",
            "Scan.scanFilter", "one operation: every worker scans its column once with a 10% filter",
            "Gups.randomAccess", "one operation: 2^22 random updates in all, so GUP/s = score x 2^22 / 10^9");

    private WorkloadTables() {}

    static void kernelSection(StringBuilder md, String kernel, List<JmhResult> rows, String file, Map<String, String> svgs)
    {
        List<String> sizes = ordered(rows.stream().map(r -> r.params().get(WORKING_SET)).toList(),
                Arrays.stream(SizeClass.values()).map(SizeClass::label).toList());
        List<String> policies = ordered(rows.stream().map(r -> r.params().get(PLACEMENT)).toList(), POLICY_ORDER);
        String unit = rows.getFirst().unit();
        md.append("#### ").append(kernel).append(" (").append(unit).append(")\n\n");
        String note = KERNEL_NOTES.get(kernel.replaceFirst(" \\(.*", ""));
        if (note != null) {
            md.append(note.substring(0, 1).toUpperCase(Locale.ROOT)).append(note.substring(1)).append(".\n\n");
        }
        md.append("| Policy |");
        sizes.forEach(size -> md.append(' ').append(size).append(" |"));
        md.append("\n|---|");
        sizes.forEach(size -> md.append("---:|"));
        md.append('\n');
        double[][] relative = new double[sizes.size()][policies.size()];
        for (int p = 0; p < policies.size(); p++) {
            md.append("| ").append(policies.get(p)).append(" |");
            for (int s = 0; s < sizes.size(); s++) {
                Optional<JmhResult> result = find(rows, policies.get(p), sizes.get(s));
                OptionalDouble ratio = relativeToBaseline(rows, policies.get(p), sizes.get(s));
                relative[s][p] = ratio.orElse(Double.NaN);
                md.append(' ');
                if (result.isEmpty()) {
                    md.append('–');
                }
                else {
                    md.append(ratio.isPresent() ? String.format(Locale.ROOT, "**%.2f×** ", ratio.getAsDouble()) : "");
                    md.append(Units.number(result.get().score()));
                    if (Double.isFinite(result.get().scoreError()) && result.get().score() != 0) {
                        md.append(String.format(Locale.ROOT, " ±%.0f%%", 100 * result.get().scoreError() / Math.abs(result.get().score())));
                    }
                }
                md.append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        if (policies.contains(BASELINE)) {
            svgs.put(file, SvgCharts.groupedBars(kernel + ": throughput relative to " + BASELINE, "relative to " + BASELINE, sizes, policies, relative));
            md.append("![").append(kernel).append("](perf/").append(file).append(")\n\n");
        }
    }

    /** {@code Stream.triad}, with the worker count when a run set it explicitly. */
    static String kernelName(JmhResult result)
    {
        String name = result.className().replaceFirst("Benchmark$", "") + "." + result.method();
        String workers = result.params().getOrDefault(WORKERS, "0");
        return workers.equals("0") ? name : name + " (" + workers + " workers)";
    }

    /** The score of {@code policy} over the baseline's at the same size, when both were measured. */
    static OptionalDouble relativeToBaseline(List<JmhResult> rows, String policy, String size)
    {
        Optional<JmhResult> result = find(rows, policy, size);
        Optional<JmhResult> baseline = find(rows, BASELINE, size);
        if (result.isEmpty() || baseline.isEmpty() || baseline.get().score() == 0) {
            return OptionalDouble.empty();
        }
        // higher is better for throughput; for time per operation the baseline's time over ours is the speed-up
        boolean timePerOp = result.get().mode().equals("avgt") || result.get().mode().equals("sample") || result.get().mode().equals("ss");
        double ratio = timePerOp ? baseline.get().score() / result.get().score() : result.get().score() / baseline.get().score();
        return OptionalDouble.of(ratio);
    }

    private static Optional<JmhResult> find(List<JmhResult> rows, String policy, String size)
    {
        return rows.stream().filter(r -> policy.equals(r.params().get(PLACEMENT)) && size.equals(r.params().get(WORKING_SET))).findFirst();
    }

    /** The distinct {@code values}, those in {@code order} first in that order, then the others sorted. */
    private static List<String> ordered(List<String> values, List<String> order)
    {
        TreeSet<String> distinct = new TreeSet<>(values);
        List<String> result = new ArrayList<>(order.stream().filter(distinct::contains).toList());
        distinct.stream().filter(value -> !order.contains(value)).forEach(result::add);
        return List.copyOf(result);
    }
}
