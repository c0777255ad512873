package io.chiplet.jmh;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.jmh.report.JmhResult;
import io.chiplet.jmh.report.JmhResults;
import io.chiplet.jmh.report.MachineSummary;
import io.chiplet.jmh.report.PerformanceReport;
import io.chiplet.jmh.report.ReportArguments;
import io.chiplet.jmh.workload.BenchTopology;
import io.chiplet.jmh.workload.BenchWiring;
import io.chiplet.jmh.workload.CpuPair;
import io.chiplet.jmh.workload.SizeClass;
import io.chiplet.jmh.workload.WorkingSets;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Topology;
import io.chiplet.topology.TopologyException;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs the whole suite and writes the report: {@code bin/chiplet bench [--quick]}. Three JMH runs, one fork each: the
 * workload kernels under every placement policy and working-set size, the core-to-core latency matrix, and the other
 * benchmarks of this module (pinning, counters, discovery, planner, task hook). Iterations are 1 s (2 warm-up, 3
 * measured; the latency pairs 1 and 2), which overrides the benchmarks' own annotations to keep within the budget.
 *
 * <pre>
 * BenchSuite [--quick] [--section NAME] [--hwloc-xml FILE] [--root DIR]
 * </pre>
 * {@code --quick} takes under five minutes on two cores: three policies, short iterations, at most eight CPU pairs.
 * The full run takes all seven policies and the whole matrix: about 15 minutes here, and by estimate (126 workload
 * trials, 136 chiplet pairs) under 45 minutes on a dual-socket EPYC.
 */
public final class BenchSuite
{
    private static final String WORKLOADS = "io\\.chiplet\\.jmh\\.workload\\.(Stream|HashJoin|GroupBy|Scan|Gups)Benchmark\\.";
    private static final String LATENCY = "io\\.chiplet\\.jmh\\.workload\\.CoreToCoreBenchmark\\.";
    private static final String MICRO = "io\\.chiplet\\.jmh\\.(?!workload\\.)";
    private static final String SPARK_TASK_HOOK = "io\\.chiplet\\.jmh\\.SparkTaskHookBenchmark\\.";
    private static final String[] QUICK_POLICIES = {"wim", "wicp-local", "wicp-mixed"};
    private static final String[] ALL_POLICIES = {"wim", "win", "wicp-local", "wicp-mixed", "wic", "auto", "adaptive"};
    private static final int QUICK_MAX_PAIRS = 8;

    private BenchSuite() {}

    record Arguments(boolean quick, Optional<String> section, Optional<Path> hwlocXml, Path root)
    {
        static Arguments parse(String[] args)
        {
            boolean quick = false;
            Optional<String> section = Optional.empty();
            Optional<Path> hwlocXml = Optional.empty();
            Path root = Path.of("");
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> quick = true;
                    case "--section" -> section = Optional.of(value(args, ++i, "--section"));
                    case "--hwloc-xml" -> hwlocXml = Optional.of(Path.of(value(args, ++i, "--hwloc-xml")));
                    case "--root" -> root = Path.of(value(args, ++i, "--root"));
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; expected --quick, --section NAME, --hwloc-xml FILE, --root DIR");
                }
            }
            if (hwlocXml.isPresent() && !Files.isRegularFile(hwlocXml.get())) {
                throw new IllegalArgumentException("--hwloc-xml " + hwlocXml.get() + ": no such file");
            }
            return new Arguments(quick, section, hwlocXml.map(Path::toAbsolutePath), root);
        }

        private static String value(String[] args, int index, String option)
        {
            if (index >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[index];
        }
    }

    public static void main(String[] args)
    {
        Arguments arguments;
        Topology topology;
        try {
            arguments = Arguments.parse(args);
            topology = TopologyDiscovery.discover(arguments.hwlocXml().map(DiscoveryOptions::hwlocXml).orElseGet(BenchTopology::options));
        }
        catch (IllegalArgumentException | TopologyException | UnsupportedOperationException e) {
            System.err.println("chiplet bench: " + e.getMessage());
            System.err.println("chiplet bench: where this machine's topology cannot be read, pass --hwloc-xml FILE (from `lstopo --of xml`)");
            System.exit(2);
            return;
        }
        try {
            Instant start = Instant.now();
            List<Double> loads = new ArrayList<>();
            List<Path> results = run(arguments, topology, loads);
            List<JmhResult> rows = new ArrayList<>(results.stream()
                    .flatMap(file -> JmhResults.read(file).stream())
                    .toList());
            String baselineNote = addNativeBaseline(arguments, rows);
            String note = (arguments.quick() ? "quick run (`--quick`: 3 policies, 1 fork, 1×200 ms warm-up, 2×300 ms measurement)" : "full run")
                    + ", JDK " + Runtime.version() + ", " + Duration.between(start, Instant.now()).toSeconds() + " s"
                    + baselineNote + loadNote(loads, topology.allowed().size());
            MachineSummary machine = MachineSummary.of(topology, BenchWiring.pinsThreads());
            String section = arguments.section().orElseGet(() -> defaultSection(machine));
            ReportArguments report = new ReportArguments(results, arguments.root().resolve("docs/performance.md"),
                    arguments.root().resolve("docs/perf"), section, arguments.hwlocXml(), Optional.of(note));
            Path written = PerformanceReport.write(report, machine, rows, start);
            System.out.println("chiplet bench: wrote " + written + " (section \"" + section + "\") in " + Duration.between(start, Instant.now()).toSeconds() + " s");
        }
        catch (RunnerException | UncheckedIOException | IllegalArgumentException e) {
            System.err.println("chiplet bench: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Runs the C baseline of the pin benchmark where the machine has a C compiler, adding its rows to the micro-benchmarks;
     * returns what the run note says of it.
     */
    private static String addNativeBaseline(Arguments arguments, List<JmhResult> rows)
    {
        Optional<Path> compiler = NativeBaseline.compiler(Optional.ofNullable(System.getenv("PATH")).orElse(""));
        if (compiler.isEmpty()) {
            System.err.println("chiplet bench: no C compiler (cc, gcc or clang) on PATH, so no C baseline for the pin benchmark");
            return ", no C baseline (no C compiler on PATH)";
        }
        rows.addAll(NativeBaseline.run(compiler.get(), arguments.root().resolve("jmh/src/main/c/pin_baseline.c"), arguments.root().resolve("jmh/target"),
                arguments.quick() ? 100_000 : 1_000_000, arguments.quick() ? 1 : 3));
        rows.addAll(NativeBaseline.ratios(rows));
        return ", C baseline `PinBaselineC` (`jmh/src/main/c/pin_baseline.c`, " + compiler.get().getFileName() + " -O2)";
    }

    static String defaultSection(MachineSummary machine)
    {
        return machine.cpus() + "-CPU machine, " + machine.l3Instances() + " L3";
    }

    /**
     * Other processes competing for the CPUs make every comparison noise; the 1-minute load average, sampled around
     * each JMH run, tells the reader whether that happened.
     */
    static String loadNote(List<Double> loads, int cpus)
    {
        double peak = loads.stream().mapToDouble(Double::doubleValue).max().orElse(-1);
        if (peak < 0) {
            return "";
        }
        String note = String.format(Locale.ROOT, ", system load average up to %.1f on %d CPUs", peak, cpus);
        // the suite itself keeps up to `cpus` threads busy; more than twice that means others were running too
        return peak > 2.0 * cpus
                ? note + ". **Other processes competed for the CPUs during this run, so the differences below are mostly noise**"
                : note;
    }

    private static void sampleLoad(List<Double> loads)
    {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        if (load >= 0) {
            loads.add(load);
        }
    }

    private static List<Path> run(Arguments arguments, Topology topology, List<Double> loads)
            throws RunnerException
    {
        Path target = arguments.root().resolve("jmh/target");
        List<String> jvmArgs = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xmx" + heapMegabytes(topology) + "m"));
        arguments.hwlocXml().ifPresent(file -> jvmArgs.add("-D" + BenchTopology.HWLOC_XML_PROPERTY + "=" + file));
        String[] jvm = jvmArgs.toArray(String[]::new);
        List<Path> results = new ArrayList<>();

        Path workloads = target.resolve("jmh-result.json");
        ChainedOptionsBuilder workloadOptions = base(jvm, workloads)
                .include(WORKLOADS)
                .param("placement", arguments.quick() ? QUICK_POLICIES : ALL_POLICIES)
                .param("workingSet", Arrays.stream(SizeClass.values()).map(SizeClass::label).toArray(String[]::new));
        timing(workloadOptions, arguments.quick(), 2, 3);
        sampleLoad(loads);
        runIfAny(workloadOptions, workloads, results);
        sampleLoad(loads);

        Path latency = target.resolve("jmh-latency.json");
        List<CpuPair> pairs = CpuPair.plan(topology);
        if (!pairs.isEmpty()) {
            List<CpuPair> measured = arguments.quick() ? pairs.subList(0, Math.min(QUICK_MAX_PAIRS, pairs.size())) : pairs;
            ChainedOptionsBuilder latencyOptions = base(jvm, latency)
                    .include(LATENCY)
                    .param("cpuPair", measured.stream().map(CpuPair::toString).toArray(String[]::new));
            timing(latencyOptions, arguments.quick(), 1, 2);
            runIfAny(latencyOptions, latency, results);
            sampleLoad(loads);
        }

        Path micro = target.resolve("jmh-micro.json");
        // capped like the others, so that a micro-benchmark left at JMH's defaults (5 forks of 10 x 10 s) cannot eat the budget
        ChainedOptionsBuilder microOptions = base(jvm, micro).include(MICRO);
        if (!sparkOnClassPath()) {
            System.err.println("chiplet bench: Spark is not on the class path, skipping SparkTaskHookBenchmark (bin/chiplet bench puts it there)");
            microOptions.exclude(SPARK_TASK_HOOK);
        }
        timing(microOptions, arguments.quick(), 2, 3);
        runIfAny(microOptions, micro, results);
        sampleLoad(loads);
        return List.copyOf(results);
    }

    private static ChainedOptionsBuilder base(String[] jvmArgs, Path result)
    {
        return new OptionsBuilder()
                .forks(1)
                .jvmArgsAppend(jvmArgs)
                .resultFormat(ResultFormatType.JSON)
                .result(result.toString());
    }

    /** Quick: {@link #quickTiming}. Full: the given counts of 1 s iterations. */
    private static void timing(ChainedOptionsBuilder options, boolean quick, int warmups, int measurements)
    {
        if (quick) {
            quickTiming(options);
        }
        else {
            options.warmupIterations(warmups).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(measurements).measurementTime(TimeValue.seconds(1));
        }
    }

    /** One 200 ms warm-up, two 300 ms measurements: enough to see the suite work, not to trust small differences. */
    private static void quickTiming(ChainedOptionsBuilder options)
    {
        options.warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                .measurementIterations(2).measurementTime(TimeValue.milliseconds(300));
    }

    private static void runIfAny(ChainedOptionsBuilder options, Path result, List<Path> results)
            throws RunnerException
    {
        try {
            Files.deleteIfExists(result);
            Files.createDirectories(result.getParent());
            new Runner(options.build()).run();
        }
        catch (NoBenchmarksException e) {
            return;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + result, e);
        }
        if (Files.isRegularFile(result)) {
            results.add(result);
        }
    }

    /** The Spark plugin's hook benchmark needs Spark, which benchmarks.jar does not carry. */
    static boolean sparkOnClassPath()
    {
        try {
            Class.forName("org.apache.spark.api.plugin.ExecutorPlugin", false, BenchSuite.class.getClassLoader());
            Class.forName("io.chiplet.spark.TaskHooks", false, BenchSuite.class.getClassLoader());
            return true;
        }
        catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Room for the largest working set twice over (tables, scratch, young generation), at least 1 GiB. */
    static long heapMegabytes(Topology topology)
    {
        long beyond = WorkingSets.of(topology).bytes(SizeClass.BEYOND);
        return Math.max(1024, 2 * (beyond >> 20) + 512);
    }
}
