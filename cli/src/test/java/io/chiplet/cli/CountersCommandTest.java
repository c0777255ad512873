package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.chiplet.perf.TestThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class CountersCommandTest
{
    @TempDir
    Path root;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void snapshotListsEveryReasonAndSkipsLiveCounting()
            throws IOException
    {
        write("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\n");
        write("proc/sys/kernel/perf_event_paranoid", "2\n");
        write("proc/self/status", "CapEff:\t0000000000000000\n");
        write("sys/bus/event_source/devices/software/type", "1\n");
        write("sys/bus/event_source/devices/tracepoint/type", "2\n");

        int exit = run("counters", "--fs-root", root.toString());

        assertThat(exit).isZero();
        String text = out.toString();
        assertThat(text).contains("perf_event_paranoid: 2\n");
        assertThat(text).contains("CPU: AuthenticAMD family 0x19 model 0x1 (AMD EPYC 7763 64-Core Processor), AMD Zen 3");
        assertThat(text).containsPattern("task-clock +allowed by the snapshot's settings \\(not probed\\)");
        assertThat(text).containsPattern("context-switches +unavailable: context-switches happens only in kernel mode");
        assertThat(text).containsPattern("cycles +unavailable: no hardware PMU \\(virtual machine\\?\\)");
        // one reason shared by every hardware event is said once, not repeated on each line
        assertThat(text.split("no hardware PMU \\(virtual machine\\?\\)", -1).length - 1).as(text).isLessThanOrEqualTo(3);
        assertThat(text).containsPattern("instructions +unavailable: the same reason\n");
        assertThat(text).contains("remote-access signal (hardware): unavailable: no hardware PMU (virtual machine?)");
        assertThat(text).contains("live counting skipped: --fs-root " + root + " is a snapshot, not this machine");
    }

    @Test
    void liveJsonHasAvailabilityAndBoundedIntervals()
            throws IOException
    {
        int exit = run("counters", "--format", "json", "--count", "2", "--interval-ms", "50");

        assertThat(exit).as(err.toString()).isZero();
        Map<String, Object> json = parse(out.toString());
        assertThat(json.get("target")).isEqualTo("calling thread");
        assertThat(json.get("probed")).isEqualTo(true);
        List<Map<String, Object>> events = list(json.get("events"));
        assertThat(events).extracting(event -> event.get("name")).contains("task-clock", "page-faults", "cycles");
        assertThat(events).filteredOn(event -> event.get("name").equals("task-clock")).singleElement()
                .satisfies(event -> assertThat(event.get("available")).isEqualTo(true));
        // every unavailable event says why
        assertThat(events).filteredOn(event -> event.get("available").equals(false))
                .allSatisfy(event -> assertThat((String) event.get("reason")).isNotBlank());
        List<Map<String, Object>> intervals = list(json.get("intervals"));
        assertThat(intervals).hasSize(2);
        assertThat(intervals).allSatisfy(interval -> {
            assertThat(((Number) interval.get("intervalNanos")).longValue()).isGreaterThanOrEqualTo(50_000_000L);
            assertThat(map(interval.get("counts"))).containsKey("task-clock");
            assertThat(map(interval.get("signal")).get("source")).isIn("HARDWARE", "SOFTWARE_FALLBACK");
        });
        // The software fallback counts minor faults over the same intervals as the minor-faults column: they agree
        // (to the few faults between the two reads), where the signal's first interval used to start earlier.
        if (map(intervals.get(0).get("signal")).get("source").equals("SOFTWARE_FALLBACK")) {
            assertThat(intervals).allSatisfy(interval -> assertThat(((Number) map(interval.get("signal")).get("events")).longValue())
                    .isCloseTo(((Number) map(interval.get("counts")).get("minor-faults")).longValue(), org.assertj.core.data.Offset.offset(5L)));
        }
        Map<String, Object> signal = map(json.get("remoteAccessSignal"));
        if (signal.get("hardwareAvailable").equals(false)) {
            assertThat((String) signal.get("hardwareReason")).isNotBlank();
            assertThat((String) signal.get("inUse")).startsWith("SOFTWARE_FALLBACK");
        }
    }

    /**
     * The text a user reads: every rate column says its unit, and under the software fallback the remote-access signal
     * is the minor-faults column, not a column of its own that read a few microseconds apart disagreed with it.
     */
    @Test
    void liveTextRatesHaveUnitsAndTheFallbackSignalIsTheMinorFaultsColumn()
    {
        int exit = run("counters", "--count", "3", "--interval-ms", "50");

        assertThat(exit).as(err.toString()).isZero();
        List<String> lines = out.toString().lines().toList();
        String header = lines.stream().filter(line -> line.strip().startsWith("interval ")).findFirst().orElseThrow();
        assertThat(header.strip().split(" {2,}")).as(header).allSatisfy(column -> assertThat(column).matches("interval|.+ ms/s|.+/s"));
        String signal = lines.stream().filter(line -> line.startsWith("remote-access signal in use: ")).findFirst().orElseThrow();
        String legend = lines.get(lines.indexOf(header) - 1);
        if (signal.contains("SOFTWARE_FALLBACK (minor-faults")) {
            assertThat(header).contains("minor-faults/s").doesNotContain("remote-access/s");
            assertThat(legend).endsWith("remote-access: the signal in use is the minor-faults/s column");
        }
        else {
            assertThat(header).endsWith("remote-access/s");
            assertThat(legend).endsWith("remote-access: the signal in use");
        }
        assertThat(lines.subList(lines.indexOf(header) + 1, lines.size())).hasSize(3)
                .allSatisfy(row -> assertThat(row.strip().split(" +")).hasSameSizeAs(header.strip().split(" {2,}")));
    }

    @Test
    void anotherThreadIsCountedByTid()
            throws Exception
    {
        AtomicInteger tid = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread spinner = new Thread(() -> {
            tid.set(TestThreads.currentTid());
            started.countDown();
            long x = 0;
            while (!stop.get()) {
                x += x * 31 + 1;
            }
            if (x == 42) {
                System.out.print("");
            }
        });
        spinner.start();
        started.await();
        try {
            int exit = run("counters", "--tid", Integer.toString(tid.get()), "--format", "json", "--count", "2", "--interval-ms", "100");
            assertThat(exit).as(err.toString()).isZero();
            Map<String, Object> json = parse(out.toString());
            assertThat(json.get("target")).isEqualTo("thread " + tid.get());
            long taskClock = list(json.get("intervals")).stream()
                    .mapToLong(interval -> ((Number) map(interval.get("counts")).get("task-clock")).longValue())
                    .sum();
            assertThat(taskClock).isPositive();
        }
        finally {
            stop.set(true);
            spinner.join();
        }
    }

    @Test
    void missingThreadIsAClearError()
    {
        int exit = run("counters", "--tid", "2147483646", "--count", "1");
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("chiplet counters: --tid 2147483646: no such thread");
        assertThat(err.toString()).doesNotContain("Exception");
    }

    @Test
    void nonPositiveIntervalIsRejected()
    {
        int exit = run("counters", "--interval-ms", "0");
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--interval-ms must be positive, was 0");
    }

    @Test
    void malformedParanoidFileIsNamed()
            throws IOException
    {
        write("proc/sys/kernel/perf_event_paranoid", "high\n");
        int exit = run("counters", "--fs-root", root.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString()).contains("perf_event_paranoid: expected an integer perf_event_paranoid level, found 'high'");
    }

    private int run(String... args)
    {
        CommandLine commandLine = ChipletCli.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private void write(String relative, String content)
            throws IOException
    {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private static Map<String, Object> parse(String text)
            throws IOException
    {
        try (JsonParser parser = new JsonFactory().createParser(text)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            return map(value(parser));
        }
    }

    private static Object value(JsonParser parser)
            throws IOException
    {
        return switch (parser.currentToken()) {
            case START_OBJECT -> {
                Map<String, Object> object = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    object.put(name, value(parser));
                }
                yield object;
            }
            case START_ARRAY -> {
                List<Object> array = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(parser));
                }
                yield array;
            }
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getNumberValue();
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            case VALUE_NULL -> "null";
            default -> throw new IllegalStateException("unexpected " + parser.currentToken());
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value)
    {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value)
    {
        return (List<Map<String, Object>>) value;
    }
}
