package io.chiplet.cli;

import com.github.luben.zstd.ZstdOutputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.SnappyOutputStream;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code chiplet report} on event logs as Spark writes them, in each codec Spark offers that it reads, single files and
 * rolling directories; runs of one application name pooled; an unreadable log named in one line with exit code 2.
 */
class ReportCommandTest
{
    private record Run(int exit, String out, String err) {}

    @Test
    void everyCodecAndRollingLogsAreReadAndRecurringRunsPooled(@TempDir Path temp)
            throws IOException
    {
        Path logs = Files.createDirectories(temp.resolve("logs"));
        write(logs.resolve("app-1"), log("app-1", "nightly", 1.20), out -> out);
        write(logs.resolve("app-2.zstd"), log("app-2", "nightly", 1.10), ZstdOutputStream::new);
        write(logs.resolve("app-3.lz4"), log("app-3", "nightly", 1.15), LZ4BlockOutputStream::new);
        write(logs.resolve("app-4.snappy"), log("app-4", "adhoc", 0.95), SnappyOutputStream::new);
        // Spark 4's rolling log: the events split over two files, the first compressed.
        Path rolling = Files.createDirectories(logs.resolve("eventlog_v2_app-5"));
        List<String> lines = log("app-5", "nightly", 1.25).lines().toList();
        write(rolling.resolve("events_1_app-5.zstd"), String.join("\n", lines.subList(0, 3)) + "\n", ZstdOutputStream::new);
        write(rolling.resolve("events_2_app-5"), String.join("\n", lines.subList(3, lines.size())) + "\n", out -> out);
        Files.writeString(rolling.resolve("appstatus_app-5"), "");
        Path page = temp.resolve("page");

        Run run = run("report", logs.toString(), "--out", page.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("chiplet report: 5 application runs (5 with the plugin's events) in 2 application names: " + page.resolve("chiplet-report.html") + "\n");
        String html = Files.readString(page.resolve("chiplet-report.html"));
        assertThat(html).contains("<h2>nightly</h2>").contains("4 runs of this application").contains("Pooled over the 4 runs with a figure")
                .contains("<h2>adhoc</h2>").contains("chiplet 1").contains("spark.sql.shuffle.partitions").contains("href=\"docs/measuring.md\"")
                .contains("placement stopped").contains("<td>1</td><td>5</td><td>1</td><td>0</td><td>chiplet 1: 5</td>").doesNotContain("<script");
        String json = Files.readString(page.resolve("chiplet-report.json"));
        assertThat(json).contains("\"kind\" : \"chiplet-eventlog-report/1\"");
        assertThat(json.replaceAll("\\s", "")).contains("\"tasksByChiplet\":{\"0\":7,\"1\":5}");
        // Equal standard errors: the pooled log speed-up is the mean of the runs' logs.
        double pooled = Math.exp((Math.log(1.20) + Math.log(1.10) + Math.log(1.15) + Math.log(1.25)) / 4);
        assertThat(json).contains(String.format(Locale.ROOT, "\"speedUp\" : %s", Double.toString(pooled)).substring(0, 20));
    }

    @Test
    void aLogThatIsNoEventLogIsNamedInOneLine(@TempDir Path temp)
            throws IOException
    {
        Path broken = Files.writeString(temp.resolve("app-9.zstd"), "not zstd at all");
        Run run = run("report", broken.toString(), "--out", temp.resolve("page").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("chiplet report: " + broken + ": cannot read it as a Spark event log compressed with zstd: ").hasLineCount(1);

        Path text = Files.writeString(temp.resolve("notes.txt"), "hello\n");
        run = run("report", text.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("chiplet report: " + text + ": line 1 is not JSON (Unrecognized token 'hello': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')); expected a Spark event log\n");

        run = run("report", temp.resolve("missing").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains(temp.resolve("missing") + ": no such file or directory");
        assertThat(temp.resolve("page")).doesNotExist();
    }

    @Test
    void noLogIsAUsageError()
    {
        Run run = run("report");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required parameter");
        assertThat(run("report", "--help").out()).contains("EVENTLOG").contains("--out");
    }

    private static Run run(String... args)
    {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine cli = ChipletCli.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private interface Compressor
    {
        OutputStream wrap(OutputStream out)
                throws IOException;
    }

    private static void write(Path file, String text, Compressor codec)
            throws IOException
    {
        try (OutputStream out = codec.wrap(Files.newOutputStream(file))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** An application's log as Spark writes it with the plugin: start, the plugin's events, end. */
    private static String log(String id, String name, double speedUp)
    {
        double low = speedUp * Math.exp(-1.96 * 0.05);
        double high = speedUp * Math.exp(1.96 * 0.05);
        boolean placing = speedUp >= 1;
        String report = String.format(Locale.ROOT, "{\"kind\":\"chiplet-measure-report/1\",\"estimate\":{\"speedUp\":%s,\"speedUpLow\":%s,\"speedUpHigh\":%s,"
                + "\"logStandardError\":0.05,\"degreesOfFreedom\":1000,\"placedClusters\":20,\"controlClusters\":20},\"summary\":\"speed-up %.3fx\"}", speedUp, low, high, speedUp);
        Function<String, String> quoted = text -> "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return String.join("\n",
                "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.2.1\"}",
                "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"" + name + "\",\"App ID\":\"" + id + "\",\"Timestamp\":1000}",
                "{\"Event\":\"io.chiplet.spark.events.ChipletTopologyEvent\",\"time\":1100,\"executorId\":\"0\",\"host\":\"h\",\"mode\":\"task\",\"chiplets\":1,\"cores\":1,\"chipletL3Bytes\":33554432,\"ownChiplets\":true}",
                "{\"Event\":\"io.chiplet.spark.events.ChipletTopologyEvent\",\"time\":1100,\"executorId\":\"1\",\"host\":\"h\",\"mode\":\"task\",\"chiplets\":1,\"cores\":1,\"chipletL3Bytes\":33554432,\"ownChiplets\":true}",
                "{\"Event\":\"io.chiplet.spark.events.ChipletSettingsEvent\",\"time\":1200,\"basis\":\"2 executors\",\"settings\":[\"spark.sql.shuffle.partitions = 6: 3 per chiplet\"]}",
                "{\"Event\":\"io.chiplet.spark.events.ChipletPlacementEvent\",\"time\":1300,\"executorId\":\"0\",\"tasks\":7,\"unplaced\":2,\"failed\":0,\"tasksByChiplet\":{\"0\":7}}",
                "{\"Event\":\"io.chiplet.spark.events.ChipletPlacementEvent\",\"time\":1300,\"executorId\":\"1\",\"tasks\":5,\"unplaced\":1,\"failed\":0,\"tasksByChiplet\":{\"1\":5}}",
                placing ? "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0}"
                        : "{\"Event\":\"io.chiplet.spark.events.ChipletGuardEvent\",\"time\":1350,\"placing\":false,\"why\":\"placed work slower\"}",
                "{\"Event\":\"io.chiplet.spark.events.ChipletMeasureEvent\",\"time\":1400,\"last\":true,\"summary\":\"s\",\"placing\":" + placing
                        + ",\"placedTasks\":9,\"controlTasks\":3,\"pluginCpuNanos\":1000000,\"jobCpuNanos\":2000000000,\"reportJson\":" + quoted.apply(report) + "}",
                "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":9000}") + "\n";
    }
}
