package io.chiplet.jmh;

import io.chiplet.jmh.report.JmhResult;
import io.chiplet.measure.Median;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * The C baseline of {@link PinBenchmark}: {@code jmh/src/main/c/pin_baseline.c}, the bare affinity and getcpu calls
 * with nothing between them, compiled with the machine's C compiler and run beside the JMH suite, so the report puts
 * what FFM and OpenHFT cost next to what the kernel costs. A machine without a C compiler gets no baseline rows, and
 * the report says so.
 */
final class NativeBaseline
{
    /** The report's class for the C rows: {@code PinBaselineC.pin_restore}. */
    static final String BENCHMARK_PREFIX = "c.PinBaselineC.";

    private static final Pattern LINE = Pattern.compile("(\\w+) mean ([0-9.]+) median ([0-9.]+)");
    private static final List<String> COMPILERS = List.of("cc", "gcc", "clang");

    private NativeBaseline() {}

    /** The first C compiler on {@code PATH}. */
    static Optional<Path> compiler(String path)
    {
        requireNonNull(path, "path is null");
        for (String name : COMPILERS) {
            for (String directory : path.split(":")) {
                if (directory.isEmpty()) {
                    continue;
                }
                Path candidate = Path.of(directory, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Compiles the baseline into {@code target/native} and runs it {@code runs} times.
     *
     * @throws UncheckedIOException when it does not compile or run, with the tool's output
     */
    static List<JmhResult> run(Path compiler, Path source, Path target, long iterations, int runs)
    {
        Path binary = target.resolve("native/pin_baseline");
        try {
            Files.createDirectories(binary.getParent());
            execute(List.of(compiler.toString(), "-O2", "-o", binary.toString(), source.toString()));
            List<String> lines = new ArrayList<>();
            for (int run = 0; run < runs; run++) {
                lines.addAll(execute(List.of(binary.toString(), Long.toString(iterations))));
            }
            return rows(lines, iterations);
        }
        catch (IOException e) {
            throw new UncheckedIOException("C baseline " + source + ": " + e.getMessage(), e);
        }
    }

    /**
     * One row per measured call: the median over runs of each run's mean (JMH's {@code avgt} is a mean too), in ns;
     * no error column, the C program does not compute one.
     */
    static List<JmhResult> rows(List<String> lines, long iterations)
    {
        Map<String, List<Double>> means = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher matcher = LINE.matcher(line.strip());
            if (matcher.matches()) {
                means.computeIfAbsent(matcher.group(1), _ -> new ArrayList<>()).add(Double.parseDouble(matcher.group(2)));
            }
        }
        if (means.isEmpty()) {
            throw new IllegalArgumentException("the C baseline printed no measurement: " + lines);
        }
        return means.entrySet().stream()
                .map(entry -> new JmhResult(BENCHMARK_PREFIX + entry.getKey(), "avgt", 1,
                        Map.of("runs", Integer.toString(entry.getValue().size()), "iterations", Long.toString(iterations)),
                        Median.of(entry.getValue().stream().mapToDouble(Double::doubleValue).toArray()), Double.NaN, "ns/op", Map.of()))
                .toList();
    }

    /** The report's class for the FFM over C ratios: {@code FfmOverC.bindRestore}. */
    static final String RATIO_PREFIX = "c.FfmOverC.";

    /**
     * Each FFM figure of the pin benchmark over its C counterpart in the same JMH run (PinBenchmark's {@code c*}
     * benchmarks call this baseline compiled as a library), as the goal reads them.
     */
    private static final Map<String, String> RATIOS = Map.of(
            "bindRestore", "ffmBindRestore/cPinRestore",
            "schedGetcpu", "ffmSchedGetcpu/cSchedGetcpu");

    /**
     * One row per FFM figure of {@code PinBenchmark} whose C counterpart ran too: the FFM mean over the C one (unit
     * {@code x}; 1.0 is the syscalls' own cost), with the FFM row's error scaled alike; sorted by name.
     */
    static List<JmhResult> ratios(List<JmhResult> rows)
    {
        List<JmhResult> ratios = new ArrayList<>();
        RATIOS.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            String[] pair = entry.getValue().split("/");
            Optional<JmhResult> ffm = pinRow(rows, pair[0]);
            Optional<JmhResult> c = pinRow(rows, pair[1]);
            if (ffm.isPresent() && c.isPresent() && c.get().score() > 0) {
                ratios.add(new JmhResult(RATIO_PREFIX + entry.getKey(), "avgt", 1, Map.of("of", pair[0] + " / " + pair[1]),
                        ffm.get().score() / c.get().score(), ffm.get().scoreError() / c.get().score(), "x", Map.of()));
            }
        });
        return ratios;
    }

    private static Optional<JmhResult> pinRow(List<JmhResult> rows, String method)
    {
        return rows.stream().filter(row -> row.className().equals("PinBenchmark") && row.method().equals(method)).findFirst();
    }

    private static List<String> execute(List<String> command)
            throws IOException
    {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed: " + output.strip());
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        return Arrays.asList(output.split("\n"));
    }
}
