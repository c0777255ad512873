package io.chiplet.jmh.report;

import io.chiplet.jmh.workload.BenchTopology;
import io.chiplet.jmh.workload.BenchWiring;
import io.chiplet.jmh.workload.CpuPair;
import io.chiplet.jmh.workload.SizeClass;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.TopologyException;
import io.chiplet.discovery.TopologyDiscovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Renders JMH's JSON results as {@code docs/performance.md} with SVG charts under {@code docs/perf/}. Each run is one
 * section named after the machine ({@code --section}); a run under a new name is added beside the existing sections,
 * a run under an existing name replaces that section only.
 *
 * <pre>
 * PerformanceReport --results jmh/target/jmh-result.json [--results MORE.json] [--section NAME]
 *                   [--out docs/performance.md] [--svg-dir docs/perf] [--hwloc-xml FILE] [--run-note TEXT]
 * </pre>
 */
public final class PerformanceReport
{
    /** Workload rows carry these parameters; see the workload benchmarks. */
    static final String PLACEMENT = "placement";
    static final String WORKING_SET = "workingSet";
    static final String WORKERS = "workers";
    static final String CPU_PAIR = "cpuPair";

    private static final List<String> POLICY_ORDER = List.of("wim", "win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive");
    private static final String BASELINE = "wim";
    private static final String TITLE = "# Performance";

    /** What one operation of each workload kernel is, so that the absolute scores can be read. */
    private static final Map<String, String> KERNEL_NOTES = Map.of(
            "Stream.copy", "one operation: every worker copies its slice once (c = a; two of the three arrays the size counts)",
            "Stream.triad", "one operation: every worker computes a = b + 3c over its slice once",
            "HashJoin.buildAndProbe", "one operation: every worker radix-partitions, builds and probes its slice of the join",
            "GroupBy.aggregate", "one operation: every worker aggregates its rows (four rows a group) into its own table",
            "Scan.scanFilter", "one operation: every worker scans its column once with a 10% filter",
            "Gups.randomAccess", "one operation: 2^22 random updates in all, so GUP/s = score x 2^22 / 10^9");

    private PerformanceReport() {}

    /** What one section is made of: its markdown and the SVG files (name to content) it links to. */
    public record Section(String name, String markdown, Map<String, String> svgs)
    {
        public Section
        {
            requireNonNull(name, "name is null");
            requireNonNull(markdown, "markdown is null");
            svgs = Map.copyOf(svgs);
        }
    }

    public static void main(String[] args)
    {
        try {
            Arguments arguments = Arguments.parse(args);
            DiscoveryOptions options = arguments.hwlocXml().map(DiscoveryOptions::hwlocXml).orElseGet(BenchTopology::options);
            MachineSummary machine = MachineSummary.of(TopologyDiscovery.discover(options), BenchWiring.pinsThreads());
            List<JmhResult> results = arguments.results().stream().flatMap(file -> JmhResults.read(file).stream()).toList();
            Path written = write(arguments, machine, results, Instant.now());
            System.out.println("wrote " + written + " (section \"" + arguments.section() + "\", " + results.size() + " results)");
        }
        catch (IllegalArgumentException | UncheckedIOException | TopologyException e) {
            System.err.println("performance report: " + e.getMessage());
            System.exit(2);
        }
    }

    /** Renders the section and merges it into the report file. */
    public static Path write(Arguments arguments, MachineSummary machine, List<JmhResult> results, Instant when)
    {
        Section section = render(arguments.section(), machine, results, when, arguments.runNote());
        try {
            Files.createDirectories(arguments.svgDirectory());
            for (Map.Entry<String, String> svg : section.svgs().entrySet()) {
                Files.writeString(arguments.svgDirectory().resolve(svg.getKey()), svg.getValue());
            }
            Optional<String> existing = Files.exists(arguments.out()) ? Optional.of(Files.readString(arguments.out())) : Optional.empty();
            Path parent = arguments.out().toAbsolutePath().getParent();
            Files.createDirectories(parent);
            String linkPrefix = parent.relativize(arguments.svgDirectory().toAbsolutePath()).toString().replace('\\', '/');
            Files.writeString(arguments.out(), merge(existing, section.name(), section.markdown().replace("](perf/", "](" + linkPrefix + "/")));
            return arguments.out();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + arguments.out() + ": " + e.getMessage(), e);
        }
    }

    /** Merges section {@code name} into the report file; a missing file is created with the introduction first. */
    public static void writeSection(Path report, String name, String body)
    {
        requireNonNull(report, "report is null");
        try {
            Optional<String> existing = Files.exists(report) ? Optional.of(Files.readString(report)) : Optional.empty();
            Files.createDirectories(report.toAbsolutePath().getParent());
            Files.writeString(report, merge(existing, name, body));
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + report + ": " + e.getMessage(), e);
        }
    }

    /**
     * Puts {@code body} into the report as section {@code name}: in place of a section of that name, else after
     * the existing ones; a new file gets the report's introduction first.
     */
    public static String merge(Optional<String> existing, String name, String body)
    {
        String slug = slug(name);
        String begin = "<!-- section: " + slug + " -->";
        String end = "<!-- /section: " + slug + " -->";
        String block = begin + "\n" + body.strip() + "\n" + end + "\n";
        String document = existing.filter(text -> !text.isBlank()).orElseGet(PerformanceReport::introduction);
        Matcher matcher = Pattern.compile(Pattern.quote(begin) + ".*?" + Pattern.quote(end) + "\\n?", Pattern.DOTALL).matcher(document);
        if (matcher.find()) {
            return document.substring(0, matcher.start()) + block + document.substring(matcher.end());
        }
        return document.stripTrailing() + "\n\n" + block;
    }

    static String introduction()
    {
        return TITLE + "\n\n"
                + "Chiplet-sensitive kernels run with their worker threads placed by each policy, at working sets below one\n"
                + "chiplet's L3, between that and the sum of all L3s, and beyond; each policy's throughput is shown relative\n"
                + "to `wim` (one worker instance per machine: workers float over all CPUs). Regenerate with\n"
                + "`bin/chiplet bench [--quick]`; a run on another machine adds its own section with `--section NAME`.\n"
                + "The kernels follow the OLAP chiplet study (STREAM §2.5/§4.4, core-to-core latency §2.3) and CHARM (Fig. 5).\n";
    }

    /** The section's markdown and charts; pure, so tests can check it without a machine. */
    public static Section render(String name, MachineSummary machine, List<JmhResult> results, Instant when, Optional<String> runNote)
    {
        requireNonNull(name, "name is null");
        requireNonNull(machine, "machine is null");
        String slug = slug(name);
        StringBuilder md = new StringBuilder();
        Map<String, String> svgs = new LinkedHashMap<>();
        md.append("## ").append(name).append("\n\n");
        md.append("Measured ").append(when.truncatedTo(ChronoUnit.SECONDS)).append(runNote.map(note -> "; " + note).orElse("")).append(".\n\n");
        machineSection(md, machine);

        List<JmhResult> workload = results.stream().filter(r -> r.params().containsKey(PLACEMENT) && r.params().containsKey(WORKING_SET)).toList();
        List<JmhResult> latency = results.stream().filter(r -> r.params().containsKey(CPU_PAIR)).toList();
        List<JmhResult> micro = results.stream().filter(r -> !workload.contains(r) && !latency.contains(r)).toList();

        md.append("### Workloads\n\n");
        if (workload.isEmpty()) {
            md.append("No workload results in this run.\n\n");
        }
        else {
            md.append("Each cell: throughput relative to `wim` at the same working set, then the absolute score ± JMH's 99.9% error.\n\n");
        }
        Map<String, List<JmhResult>> byKernel = workload.stream()
                .collect(Collectors.groupingBy(PerformanceReport::kernelName, TreeMap::new, Collectors.toList()));
        for (Map.Entry<String, List<JmhResult>> kernel : byKernel.entrySet()) {
            String file = slug + "-" + slug(kernel.getKey()) + ".svg";
            kernelSection(md, kernel.getKey(), kernel.getValue(), file, svgs);
        }

        if (!latency.isEmpty()) {
            latencySection(md, machine, latency, slug + "-core-to-core.svg", svgs);
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
                            .append(" | ").append(number(r.score()))
                            .append(" | ").append(Double.isFinite(r.scoreError()) ? "± " + number(r.scoreError()) : "")
                            .append(" | ").append(r.unit()).append(" |\n"));
        }
        return new Section(name, md.toString(), svgs);
    }

    private static void machineSection(StringBuilder md, MachineSummary machine)
    {
        md.append("### Machine\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| Topology source | `").append(machine.source()).append("` |\n");
        md.append("| CPUs (allowed) / cores | ").append(machine.cpus()).append(" / ").append(machine.cores()).append(" |\n");
        md.append("| Packages / NUMA nodes | ").append(machine.packages()).append(" / ").append(machine.numaNodes()).append(" |\n");
        md.append("| Chiplets | ").append(machine.chiplets()).append(" |\n");
        md.append("| L3 | ").append(machine.l3Known()
                ? machine.l3Instances() + " instance(s); " + bytes(machine.chipletL3Bytes()) + " per chiplet, " + bytes(machine.totalL3Bytes()) + " in all"
                : "not reported; sizes assume " + bytes(machine.chipletL3Bytes())).append(" |\n");
        md.append("| Working sets | ").append(Arrays.stream(SizeClass.values())
                .map(s -> s.label() + " " + bytes(machine.workingSetBytes().getOrDefault(s, 0L)))
                .collect(Collectors.joining(", "))).append(" |\n");
        md.append("| Workers per kernel | ").append(machine.defaultWorkers()).append(" (the CPUs of one chiplet) |\n");
        md.append("| Threads pinned | ").append(machine.pinned() ? "yes" : "no: the affinity layer was not wired into this build, so every placement ran wherever the scheduler put its threads").append(" |\n\n");
        if (machine.singleL3()) {
            md.append("> **This machine has a single L3 cache.** Every placement shares that one cache and one memory path, so the\n"
                    + "> policies cannot show chiplet effects here: differences between them are overhead and noise. The numbers check\n"
                    + "> that the suite runs; run it on a machine with several L3 groups (an EPYC, a Xeon in SNC mode) to see placement matter.\n\n");
        }
        if (!machine.unknowns().isEmpty()) {
            md.append("Topology caveats: ").append(String.join("; ", machine.unknowns())).append(".\n\n");
        }
    }

    private static void kernelSection(StringBuilder md, String kernel, List<JmhResult> rows, String file, Map<String, String> svgs)
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
                    md.append(number(result.get().score()));
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

    private static void latencySection(StringBuilder md, MachineSummary machine, List<JmhResult> rows, String file, Map<String, String> svgs)
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
                .append(" | ").append(nanos(values[0]))
                .append(" | ").append(nanos(values[values.length / 2]))
                .append(" | ").append(nanos(values[values.length - 1])).append(" |\n\n");
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
                    md.append(Double.isFinite(matrix[i][j]) ? " " + nanos(matrix[i][j]) + " |" : " – |");
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

    static String slug(String name)
    {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        if (slug.isEmpty()) {
            throw new IllegalArgumentException("section name \"" + name + "\" needs at least one letter or digit");
        }
        return slug;
    }

    static String number(double value)
    {
        if (!Double.isFinite(value)) {
            return String.valueOf(value);
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 100_000) {
            return String.format(Locale.ROOT, "%.3g", value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    /** A duration given in nanoseconds, in the unit that keeps it short: {@code 24.0 ns}, {@code 1.5 µs}, {@code 18.9 ms}. */
    static String nanos(double nanos)
    {
        if (nanos >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1_000_000);
        }
        if (nanos >= 1_000) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1_000);
        }
        return String.format(Locale.ROOT, "%.1f ns", nanos);
    }

    static String bytes(long bytes)
    {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.0f MiB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
    }

    /** The command line. */
    public record Arguments(List<Path> results, Path out, Path svgDirectory, String section, Optional<Path> hwlocXml, Optional<String> runNote)
    {
        public Arguments
        {
            results = List.copyOf(results);
            requireNonNull(out, "out is null");
            requireNonNull(svgDirectory, "svgDirectory is null");
            requireNonNull(section, "section is null");
            requireNonNull(hwlocXml, "hwlocXml is null");
            requireNonNull(runNote, "runNote is null");
            slug(section);
        }

        public static Arguments defaults(List<Path> results, String section)
        {
            return new Arguments(results, Path.of("docs/performance.md"), Path.of("docs/perf"), section, Optional.empty(), Optional.empty());
        }

        /**
         * @throws IllegalArgumentException naming the option and what it expects
         */
        public static Arguments parse(String[] args)
        {
            List<Path> results = new ArrayList<>();
            Path out = Path.of("docs/performance.md");
            Path svgs = Path.of("docs/perf");
            String section = "This machine";
            Optional<Path> hwlocXml = Optional.empty();
            Optional<String> note = Optional.empty();
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value" : "unexpected argument " + option);
                }
                String value = args[++i];
                switch (option) {
                    case "--results" -> results.add(Path.of(value));
                    case "--out" -> out = Path.of(value);
                    case "--svg-dir" -> svgs = Path.of(value);
                    case "--section" -> section = value;
                    case "--hwloc-xml" -> hwlocXml = Optional.of(Path.of(value));
                    case "--run-note" -> note = Optional.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + option
                            + "; expected --results FILE, --out FILE, --svg-dir DIR, --section NAME, --hwloc-xml FILE, --run-note TEXT");
                }
            }
            if (results.isEmpty()) {
                throw new IllegalArgumentException("--results FILE is required (JMH's JSON, e.g. jmh/target/jmh-result.json)");
            }
            for (Path file : results) {
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("--results " + file + ": no such file");
                }
            }
            return new Arguments(results, out, svgs, section, hwlocXml, note);
        }
    }
}
