package io.chiplet.it;

import io.chiplet.it.SparkSubmit.Cell;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Chiplet tab, checked in headless Chromium: in the live UI of the PySpark job {@link EventLogRuns} runs (with
 * the plugin added as users add it), and in the History Server of the pip-installed pyspark started over that job's
 * event log with the plugin's jar on its class path. Screenshots under {@code target/screenshots/} (copied to
 * {@code docs/images/} with {@code -Dchiplet.it.updateDocsImages=true}).
 */
class SparkChipletTabTest
{
    static List<Cell> cells()
    {
        return Cell.configured();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void theLiveUiHasTheChipletTab(Cell cell)
            throws Exception
    {
        HeadlessBrowser.require();
        EventLogRuns run = EventLogRuns.of(cell);
        assertThat(run.liveTab()).as("the live tab was rendered while the application ran").isPresent();
        // The host's chiplets as a picture, each executor's CPU marked in it.
        assertThat(run.liveTab().get()).contains("Chiplet report").contains("chiplet-eventlog-job").contains("Tasks per chiplet").contains("Where each executor and task ran")
                .contains("<svg").contains("data-executor=\"0\"").contains("data-executor=\"1\"");
        // The tab bar of Spark's own pages links to it.
        assertThat(run.liveJobs().orElseThrow()).contains("href=\"/chiplet/\"").contains(">Chiplet<");
        copyToDocs("live-ui-chiplet-" + cell.pyspark() + ".png", "spark-ui-chiplet-tab.png", cell);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void theHistoryServerShowsTheChipletTabFromTheEventLog(Cell cell)
            throws Exception
    {
        HeadlessBrowser.require();
        EventLogRuns run = EventLogRuns.of(cell);
        int port = EventLogRuns.freePort();
        Path logs = Files.createDirectories(run.directory().resolve("history-logs"));
        Path pids = Files.createDirectories(run.directory().resolve("history-pids"));
        // Spark 4's History Server keeps what it replayed on disk where operators set a store path (RocksDB through
        // Spark's Jackson); Spark 3.5's here keeps it in memory: both stores hold the plugin's data.
        String store = cell.pyspark().startsWith("3.") ? "" : " -Dspark.history.store.path=" + Files.createDirectories(run.directory().resolve("history-store"));
        Map<String, String> env = Map.of(
                "JAVA_HOME", run.javaHome().toString(),
                "SPARK_HOME", run.sparkHome().toString(),
                "SPARK_LOG_DIR", logs.toString(),
                "SPARK_PID_DIR", pids.toString(),
                "SPARK_DAEMON_CLASSPATH", ProbeJar.pluginJar().toString(),
                "SPARK_HISTORY_OPTS", "-Dspark.history.fs.logDirectory=" + run.eventLogDir().toUri() + " -Dspark.history.ui.port=" + port
                        + " -Dspark.history.fs.update.interval=1s -Dspark.ui.bindAddress=127.0.0.1" + store,
                "SPARK_LOCAL_IP", "127.0.0.1");
        daemon(run, env, "sbin/start-history-server.sh");
        try {
            String id = run.applicationLog().getFileName().toString().replaceFirst("^eventlog_v2_", "").replaceFirst("\\..*$", "");
            awaitListed(port, id, logs);
            Path png = Path.of("target", "screenshots").toAbsolutePath().resolve("history-chiplet-" + cell.pyspark() + ".png");
            // The first request loads the application's UI (replaying the log) and redirects to the page.
            String dom = HeadlessBrowser.screenshot("http://127.0.0.1:" + port + "/history/" + id + "/chiplet/", png, 1100, 1400);
            assertThat(dom).as("History Server page; its log in %s", logs).contains("Chiplet report").contains("chiplet-eventlog-job").contains("Tasks per chiplet")
                    .contains("the event log, replayed by the History Server").contains("<svg")
                    .contains("data-executor=\"0\"").contains("data-executor=\"1\"")
                    // Tasks per stage and the last tasks, with their arms, each table saying its bound.
                    .contains("Tasks per stage").contains("the last 50 stages at most").contains("Last tasks").contains("<td>placed</td>").contains("<td>control</td>");
            String jobs = HeadlessBrowser.screenshot("http://127.0.0.1:" + port + "/history/" + id + "/jobs/",
                    png.resolveSibling("history-jobs-" + cell.pyspark() + ".png"), 1100, 700);
            assertThat(jobs).contains("/history/" + id + "/chiplet/").contains(">Chiplet<");
            // The page's links open the docs the jar carries.
            HttpResponse<String> docs = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/history/" + id + "/chiplet/docs/measuring.md"))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(docs.statusCode()).isEqualTo(200);
            assertThat(docs.body()).startsWith("# Measuring placement in place");
            copyToDocs("history-chiplet-" + cell.pyspark() + ".png", "history-server-chiplet-tab.png", cell);
        }
        finally {
            daemon(run, env, "sbin/stop-history-server.sh");
        }
    }

    private static void daemon(EventLogRuns run, Map<String, String> env, String script)
            throws IOException, InterruptedException
    {
        ProcessBuilder builder = new ProcessBuilder(run.sparkHome().resolve(script).toString()).redirectErrorStream(true)
                .redirectOutput(run.directory().resolve(Path.of(script).getFileName() + ".out").toFile());
        builder.environment().keySet().removeIf(key -> key.startsWith("SPARK_") || key.equals("CLASSPATH"));
        builder.environment().putAll(env);
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(script).isTrue();
        assertThat(process.exitValue()).as("%s: %s", script, Files.readString(run.directory().resolve(Path.of(script).getFileName() + ".out"))).isZero();
    }

    static void awaitListed(int port, String id, Path logs)
            throws IOException, InterruptedException
    {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/applications")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                last = response.body();
                if (response.statusCode() == 200 && last.contains(id)) {
                    return;
                }
            }
            catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the History Server on port " + port + " did not list " + id + " in 90 s: " + last + "; logs in " + logs);
    }

    /** The Spark 4 screenshots go to the docs when asked. */
    private static void copyToDocs(String screenshot, String name, Cell cell)
            throws IOException
    {
        if (Boolean.getBoolean("chiplet.it.updateDocsImages") && cell.equals(Cell.configured().getFirst())) {
            Files.copy(Path.of("target", "screenshots", screenshot), Files.createDirectories(Path.of("..", "docs", "images")).resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
