package io.chiplet.jmh.report;

import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.jmh.workload.BenchTopology;
import io.chiplet.jmh.workload.BenchWiring;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.TopologyException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    private PerformanceReport() {}

    public static void main(String[] args)
    {
        try {
            ReportArguments arguments = ReportArguments.parse(args);
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
    public static Path write(ReportArguments arguments, MachineSummary machine, List<JmhResult> results, Instant when)
    {
        JmhSection section = JmhSection.render(arguments.section(), machine, results, when, arguments.runNote());
        try {
            Files.createDirectories(arguments.svgDirectory());
            for (Map.Entry<String, String> svg : section.svgs().entrySet()) {
                Files.writeString(arguments.svgDirectory().resolve(svg.getKey()), svg.getValue());
            }
            Optional<String> existing = Files.exists(arguments.out()) ? Optional.of(Files.readString(arguments.out())) : Optional.empty();
            Path parent = arguments.out().toAbsolutePath().getParent();
            Files.createDirectories(parent);
            String linkPrefix = parent.relativize(arguments.svgDirectory().toAbsolutePath()).toString().replace('\\', '/');
            Files.writeString(arguments.out(), ReportDocument.merge(existing, section.name(), section.markdown().replace("](perf/", "](" + linkPrefix + "/")));
            return arguments.out();
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + arguments.out() + ": " + e.getMessage(), e);
        }
    }
}
