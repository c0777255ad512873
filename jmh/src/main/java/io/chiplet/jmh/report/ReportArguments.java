package io.chiplet.jmh.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** The command line of {@link PerformanceReport}. */
public record ReportArguments(List<Path> results, Path out, Path svgDirectory, String section, Optional<Path> hwlocXml, Optional<String> runNote)
{
    public ReportArguments
    {
        results = List.copyOf(results);
        requireNonNull(out, "out is null");
        requireNonNull(svgDirectory, "svgDirectory is null");
        requireNonNull(section, "section is null");
        requireNonNull(hwlocXml, "hwlocXml is null");
        requireNonNull(runNote, "runNote is null");
        ReportDocument.slug(section);
    }

    public static ReportArguments defaults(List<Path> results, String section)
    {
        return new ReportArguments(results, Path.of("docs/performance.md"), Path.of("docs/perf"), section, Optional.empty(), Optional.empty());
    }

    /**
     * @throws IllegalArgumentException naming the option and what it expects
     */
    public static ReportArguments parse(String[] args)
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
        return new ReportArguments(results, out, svgs, section, hwlocXml, note);
    }
}
