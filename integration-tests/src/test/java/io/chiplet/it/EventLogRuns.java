package io.chiplet.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import io.chiplet.it.SparkSubmit.Cell;
import io.chiplet.it.SparkSubmit.Result;
import io.chiplet.topology.Snapshots;
import net.jpountz.lz4.LZ4BlockInputStream;
import org.xerial.snappy.SnappyInputStream;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One PySpark application per Spark cell with the event log on, as users run it ({@code spark-submit} of the
 * pip-installed pyspark, the plugin in {@code --jars}, {@code local-cluster} with two executor JVMs, task mode on the
 * two-chiplet snapshot, the measurement on), run once and shared by every test that reads its event log. Its
 * report directory lies under a file, so that it cannot be written.
 *
 * @param eventLogDir {@code spark.eventLog.dir}: the application's log (a file, or Spark 4's rolling
 *         {@code eventlog_v2_<app>/} directory) is in it
 * @param unwritableReportDir the {@code spark.chiplet.measure.reportDir} given
 * @param liveTab the live UI's Chiplet tab as headless Chromium rendered it while the application ran (a screenshot
 *         beside it under {@code target/screenshots/}); empty where no browser is installed
 * @param liveJobs the live UI's jobs page, as rendered (its tab bar)
 */
record EventLogRuns(Cell cell, Result result, Path eventLogDir, Path unwritableReportDir, Path directory, Optional<String> liveTab, Optional<String> liveJobs, Path sparkHome,
        Path javaHome)
{
    static final int PARTITIONS = 60;
    private static final Map<Cell, EventLogRuns> RUNS = new ConcurrentHashMap<>();

    EventLogRuns
    {
        requireNonNull(cell, "cell is null");
        requireNonNull(result, "result is null");
    }

    /** The cell's application, run on first use; later callers get the same run. */
    static EventLogRuns of(Cell cell)
    {
        return RUNS.computeIfAbsent(cell, EventLogRuns::run);
    }

    private static EventLogRuns run(Cell cell)
    {
        try {
            Assumptions.liveCpusHoldingCpus0And1();
            // Under target/, kept after the build: the logs and pages are what a reader of the test output looks at.
            Path directory = Files.createTempDirectory(Files.createDirectories(Path.of("target", "eventlog-runs")).toAbsolutePath(), "pyspark-" + cell.pyspark() + "-");
            Path snapshot = Snapshots.unpack(Snapshots.TWO_CPUS_TWO_CHIPLETS, Files.createDirectories(directory.resolve("snapshot")));
            Path events = Files.createDirectories(directory.resolve("events"));
            Path blocker = Files.writeString(directory.resolve("not-a-directory"), "a file where the report directory's parent should be\n");
            Path reports = blocker.resolve("reports");
            Path script = directory.resolve("eventlog_job.py");
            try (InputStream in = EventLogRuns.class.getResourceAsStream("/eventlog_job.py")) {
                Files.copy(requireNonNull(in, "eventlog_job.py is not on the test class path"), script);
            }
            Map<String, String> conf = new HashMap<>(SparkSubmitTest.pluginConf(snapshot, directory));
            conf.put("spark.chiplet.measure.enabled", "true");
            conf.put("spark.chiplet.measure.controlShare", "0.5");
            // Per-task arms: a job of a few seconds gets a figure (and the page something to pool) within the run; the
            // default switchback windows (30 s) would leave every task of so short a job out.
            conf.put("spark.chiplet.measure.design", "task");
            conf.put("spark.chiplet.measure.seed", "5");
            conf.put("spark.chiplet.measure.reportDir", reports.toString());
            conf.put("spark.eventLog.enabled", "true");
            conf.put("spark.eventLog.dir", events.toUri().toString());
            int uiPort = freePort();
            conf.put("spark.ui.enabled", "true");
            conf.put("spark.ui.port", Integer.toString(uiPort));
            Path release = directory.resolve("release");
            SparkSubmit submit = SparkSubmit.of(cell, Files.createDirectories(directory.resolve("run"))).master("local-cluster[2,1,1024]").conf(conf).jars(ProbeJar.pluginJar());
            Optional<String> liveTab = Optional.empty();
            Optional<String> liveJobs = Optional.empty();
            Result result;
            try (SparkSubmit.Running running = submit.startPython(script, Integer.toString(PARTITIONS), "2", release.toString())) {
                Optional<String> done = running.awaitLine("CHIPLET-PROBE result");
                if (done.isPresent() && HeadlessBrowser.find().isPresent()) {
                    Path screenshots = Files.createDirectories(Path.of("target", "screenshots").toAbsolutePath());
                    String version = cell.pyspark();
                    liveTab = Optional.of(HeadlessBrowser.screenshot("http://127.0.0.1:" + uiPort + "/chiplet/", screenshots.resolve("live-ui-chiplet-" + version + ".png"), 1100, 1400));
                    liveJobs = Optional.of(HeadlessBrowser.screenshot("http://127.0.0.1:" + uiPort + "/jobs/", screenshots.resolve("live-ui-jobs-" + version + ".png"), 1100, 700));
                }
                Files.writeString(release, "done\n");
                result = running.finish();
            }
            assertThat(result.succeeded()).as(result.describe()).isTrue();
            return new EventLogRuns(cell, result, events, reports, directory, liveTab, liveJobs, submit.home(), submit.javaHome());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int freePort()
            throws IOException
    {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The application's log: the single file or rolling directory Spark wrote into the event-log directory. */
    Path applicationLog()
            throws IOException
    {
        try (Stream<Path> entries = Files.list(eventLogDir)) {
            List<Path> logs = entries.filter(entry -> !entry.getFileName().toString().endsWith(".inprogress")).toList();
            assertThat(logs).as("event logs in %s", eventLogDir).hasSize(1);
            return logs.getFirst();
        }
    }

    /** Every event of the application's log, in order, read with the codec its file name says. */
    List<JsonNode> events()
            throws IOException
    {
        Path log = applicationLog();
        List<Path> files;
        if (Files.isDirectory(log)) {
            try (Stream<Path> entries = Files.list(log)) {
                files = entries.filter(entry -> entry.getFileName().toString().startsWith("events_"))
                        .sorted((a, b) -> Integer.compare(index(a), index(b)))
                        .toList();
            }
        }
        else {
            files = List.of(log);
        }
        ObjectMapper mapper = new ObjectMapper();
        List<JsonNode> events = new ArrayList<>();
        for (Path file : files) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(decompressed(file), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (!line.isBlank()) {
                        events.add(mapper.readTree(line));
                    }
                }
            }
        }
        return events;
    }

    private static int index(Path rolled)
    {
        return Integer.parseInt(rolled.getFileName().toString().split("_")[1]);
    }

    private static InputStream decompressed(Path file)
            throws IOException
    {
        InputStream in = Files.newInputStream(file);
        String name = file.getFileName().toString();
        if (name.endsWith(".zstd")) {
            return new ZstdInputStream(in);
        }
        if (name.endsWith(".lz4")) {
            return new LZ4BlockInputStream(in);
        }
        if (name.endsWith(".snappy")) {
            return new SnappyInputStream(in);
        }
        return in;
    }
}
