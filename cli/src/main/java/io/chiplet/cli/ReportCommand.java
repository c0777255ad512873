package io.chiplet.cli;

import io.chiplet.report.RunFacts;
import io.chiplet.report.RunsPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code chiplet report EVENTLOG...}: the plugin's page built offline from Spark event logs, for logs of clusters the
 * user cannot reach; recurring applications (same name) pooled across logs.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Builds the chiplet plugin's page (HTML and JSON) from Spark event logs: plain or compressed (zstd, lz4, snappy) files, "
                + "Spark 4's rolling eventlog_v2_* directories, or directories of them (spark.eventLog.dir). Runs of one application name are pooled.",
                "Exit code 0 when the page was written, 2 for a bad option or an unreadable log (named), 1 for a failure writing it."})
final class ReportCommand
        implements Callable<Integer>
{
    @Parameters(arity = "1..*", paramLabel = "EVENTLOG", description = "Event log files or directories.")
    List<Path> logs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".", description = "Where to write chiplet-report.html and chiplet-report.json (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--docs-url", paramLabel = "URL", defaultValue = "docs/", description = "Where the page's links to the docs point (default: ${DEFAULT-VALUE}).")
    String docsUrl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call()
    {
        List<RunFacts> runs = new ArrayList<>();
        int status = CommandErrors.run(spec, () -> {
            for (Path path : logs) {
                for (Path log : SparkEventLogs.logsIn(path)) {
                    runs.add(SparkEventLogs.run(log, SparkEventLogs.events(log)));
                }
            }
        });
        if (status != 0) {
            return status;
        }
        RunsPage page = new RunsPage(runs, docsUrl.endsWith("/") ? docsUrl : docsUrl + "/");
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("chiplet-report.html"), page.html(), StandardCharsets.UTF_8);
            Files.writeString(out.resolve("chiplet-report.json"), page.json(), StandardCharsets.UTF_8);
        }
        catch (IOException | UncheckedIOException e) {
            spec.commandLine().getErr().println("chiplet report: cannot write the page to " + out + ": " + e.getMessage());
            return ChipletCli.RUNTIME_ERROR;
        }
        long withPlugin = runs.stream().filter(RunFacts::hadPlugin).count();
        spec.commandLine().getOut().printf("chiplet report: %d application run%s (%d with the plugin's events) in %d application name%s: %s%n", runs.size(),
                runs.size() == 1 ? "" : "s", withPlugin, page.byApplication().size(), page.byApplication().size() == 1 ? "" : "s", out.resolve("chiplet-report.html"));
        return 0;
    }
}
