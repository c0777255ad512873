package io.chiplet.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.chiplet.perf.Availability;
import io.chiplet.perf.CounterAvailability;
import io.chiplet.perf.CounterTarget;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.FillSourceEvent;
import io.chiplet.perf.GroupReading;
import io.chiplet.perf.PerfCounterGroup;
import io.chiplet.perf.PerfEvent;
import io.chiplet.perf.PerfEventOpenException;
import io.chiplet.perf.PerfPlatform;
import io.chiplet.perf.RemoteAccessRate;
import io.chiplet.perf.RemoteAccessSignal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code chiplet counters}: which perf events can be counted here and exactly why the others cannot, then live
 * per-interval rates of the software events and of the remote-access signal for one thread.
 */
@Command(
        name = "counters",
        mixinStandardHelpOptions = true,
        description = {
                "Lists which perf events can be counted here and why the others cannot,",
                "then prints live rates per interval for one thread (this command's own thread by default)."})
public final class CountersCommand
        implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--tid", paramLabel = "N", description = "Linux thread id to count (default: this command's own thread).")
    private Integer tid;

    @Option(names = "--interval-ms", paramLabel = "N", defaultValue = "500", description = "Sampling interval in milliseconds (default: ${DEFAULT-VALUE}, CHARM's timer).")
    private long intervalMillis;

    @Option(names = "--count", paramLabel = "N", defaultValue = "3", description = "Number of intervals to print (default: ${DEFAULT-VALUE}; 0 lists availability only).")
    private int count;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", converter = OutputFormat.Converter.class,
            description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
    private OutputFormat format;

    @Option(names = "--fs-root", paramLabel = "DIR", defaultValue = "/", description = "Read proc/ and sys/ under DIR instead of / (a snapshot: no live counting).")
    private Path fsRoot;

    /** One event's line of the availability listing. */
    private record EventStatus(String group, PerfEvent event, Availability availability) {}

    /** One interval of live counts. */
    private record Interval(long intervalNanos, Map<String, Long> counts, RemoteAccessSignal.Sample signal) {}

    /** Everything the command prints, in either format. */
    private record Report(
            boolean probed,
            PerfPlatform platform,
            EventCatalog catalog,
            CounterTarget target,
            List<EventStatus> statuses,
            Availability signalHardware,
            Optional<String> signalDescription,
            List<Interval> intervals,
            Optional<String> liveProblem) {}

    @Override
    public Integer call()
    {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean live = isLiveRoot();
        PerfPlatform platform;
        try {
            platform = PerfPlatform.read(fsRoot);
        }
        catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("chiplet counters: " + e.getMessage());
            return 1;
        }
        EventCatalog catalog = EventCatalog.select(platform);
        CounterTarget target = tid == null ? CounterTarget.callingThread() : CounterTarget.thread(tid);
        // a snapshot says nothing about this kernel, so only the pure decision applies to it
        CounterAvailability.Probe probe = live ? CounterAvailability.SYSCALL_PROBE : (event, probed) -> OptionalInt.empty();

        if (tid != null && live && !Files.exists(Path.of("/proc/" + tid))) {
            err.println("chiplet counters: --tid " + tid + ": no such thread (/proc/" + tid + " does not exist)");
            return 1;
        }

        List<EventStatus> statuses = new ArrayList<>();
        for (PerfEvent event : catalog.software()) {
            statuses.add(new EventStatus("software", event, CounterAvailability.assess(event, target, platform, probe)));
        }
        for (PerfEvent event : catalog.hardware()) {
            statuses.add(new EventStatus("hardware", event, CounterAvailability.assess(event, target, platform, probe)));
        }
        for (FillSourceEvent fill : catalog.fillSources()) {
            statuses.add(new EventStatus("fill-source", fill.event(), CounterAvailability.assess(fill.event(), target, platform, probe)));
        }
        Availability signalHardware = CounterAvailability.assessFillSources(catalog, target, platform, probe);

        List<Interval> intervals = new ArrayList<>();
        Optional<String> signalDescription = Optional.empty();
        Optional<String> liveProblem = live ? Optional.empty() : Optional.of("live counting skipped: --fs-root " + fsRoot + " is a snapshot, not this machine");
        if (live && count > 0) {
            try {
                signalDescription = Optional.of(countLive(target, platform, catalog, statuses, intervals));
            }
            catch (PerfEventOpenException e) {
                liveProblem = Optional.of("live counting failed: " + e.getMessage());
            }
        }

        Report report = new Report(live, platform, catalog, target, statuses, signalHardware, signalDescription, intervals, liveProblem);
        try {
            if (format == OutputFormat.JSON) {
                writeJson(out, report);
            }
            else {
                writeText(out, report);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.flush();
        return liveProblem.isPresent() && live && count > 0 ? 1 : 0;
    }

    private void validate()
    {
        OutputFormat.textOrJson(format, spec);
        if (intervalMillis <= 0) {
            throw new ParameterException(spec.commandLine(), "--interval-ms must be positive, was " + intervalMillis);
        }
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "--count must not be negative, was " + count);
        }
        if (tid != null && tid <= 0) {
            throw new ParameterException(spec.commandLine(), "--tid must be a positive thread id, was " + tid);
        }
        if (!Files.isDirectory(fsRoot)) {
            throw new ParameterException(spec.commandLine(), "--fs-root " + fsRoot + " is not a directory");
        }
    }

    private boolean isLiveRoot()
    {
        try {
            return fsRoot.toRealPath().equals(Path.of("/").toRealPath());
        }
        catch (IOException e) {
            return false;
        }
    }

    /** Counts the available software events and the remote-access signal for {@code count} intervals. */
    private String countLive(CounterTarget target, PerfPlatform platform, EventCatalog catalog, List<EventStatus> statuses, List<Interval> intervals)
    {
        List<PerfEvent> software = statuses.stream()
                .filter(status -> status.group().equals("software") && status.availability().isAvailable())
                .map(EventStatus::event)
                .toList();
        RemoteAccessRate.Choice choice = RemoteAccessRate.open(target, platform, catalog);
        try (RemoteAccessSignal signal = choice.signal();
                PerfCounterGroup group = PerfCounterGroup.open(target, software, platform.kernelCountingAllowed())) {
            group.enable();
            long[] previous = new long[software.size()];
            long previousNanos = System.nanoTime();
            for (int i = 0; i < count; i++) {
                sleep(intervalMillis);
                GroupReading reading = group.read();
                long now = System.nanoTime();
                Map<String, Long> counts = new LinkedHashMap<>();
                for (int j = 0; j < software.size(); j++) {
                    long value = reading.scaled(j);
                    counts.put(software.get(j).name(), value - previous[j]);
                    previous[j] = value;
                }
                intervals.add(new Interval(now - previousNanos, counts, signal.sample()));
                previousNanos = now;
            }
            return signal.signalSource() + " (" + signal.source() + ")";
        }
    }

    private static void writeText(PrintWriter out, Report report)
    {
        out.println("target: " + report.target());
        out.println("perf_event_paranoid: " + report.platform().paranoid().stream().mapToObj(Integer::toString).findFirst().orElse("missing")
                + (report.platform().perfmonCapable() ? " (CAP_PERFMON or CAP_SYS_ADMIN held)" : ""));
        out.println("PMUs: " + (report.platform().pmus().isEmpty() ? "none" : new TreeMap<>(report.platform().pmus()).entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(", "))));
        out.println("CPU: " + report.catalog().cpu().map(Object::toString).orElse("unknown")
                + report.catalog().microarchitecture().map(arch -> ", " + arch.displayName()).orElse(""));
        out.println();
        int width = report.statuses().stream().mapToInt(status -> status.event().name().length()).max().orElse(10);
        String currentGroup = "";
        for (EventStatus status : report.statuses()) {
            if (!status.group().equals(currentGroup)) {
                currentGroup = status.group();
                out.println(currentGroup + " events:");
            }
            out.printf(Locale.ROOT, "  %-" + width + "s  %s%n", status.event().name(), describe(status.availability(), report.probed()));
        }
        if (report.catalog().fillSources().isEmpty()) {
            out.println("fill-source events: none, " + report.catalog().fillSourcesUnknownReason().orElseThrow());
        }
        out.println();
        out.println("remote-access signal (hardware): " + describe(report.signalHardware(), report.probed()));
        report.signalDescription().ifPresent(description -> out.println("remote-access signal in use: " + description));
        report.liveProblem().ifPresent(out::println);
        if (report.intervals().isEmpty()) {
            return;
        }
        out.println();
        List<String> names = List.copyOf(report.intervals().get(0).counts().keySet());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%10s", "interval"));
        for (String name : names) {
            header.append(String.format(Locale.ROOT, "  %16s", name + "/s"));
        }
        header.append(String.format(Locale.ROOT, "  %16s", "signal/s"));
        out.println(header);
        for (Interval interval : report.intervals()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%8.1fms", interval.intervalNanos() / 1e6));
            for (String name : names) {
                line.append(String.format(Locale.ROOT, "  %16.1f", perSecond(interval.counts().get(name), interval.intervalNanos())));
            }
            line.append(String.format(Locale.ROOT, "  %16.1f", interval.signal().perSecond()));
            out.println(line);
        }
    }

    private static void writeJson(PrintWriter out, Report report)
            throws IOException
    {
        // the writer belongs to picocli: the generator must not close it
        JsonFactory factory = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.useDefaultPrettyPrinter();
            json.writeStartObject();
            json.writeStringField("target", report.target().toString());
            // on a snapshot "available" means the settings allow it; only the live kernel is probed
            json.writeBooleanField("probed", report.probed());
            json.writeObjectFieldStart("platform");
            if (report.platform().paranoid().isPresent()) {
                json.writeNumberField("perfEventParanoid", report.platform().paranoid().getAsInt());
            }
            else {
                json.writeNullField("perfEventParanoid");
            }
            json.writeBooleanField("perfmonCapable", report.platform().perfmonCapable());
            json.writeObjectFieldStart("pmus");
            for (Map.Entry<String, Integer> pmu : new TreeMap<>(report.platform().pmus()).entrySet()) {
                json.writeNumberField(pmu.getKey(), pmu.getValue());
            }
            json.writeEndObject();
            if (report.catalog().cpu().isPresent()) {
                json.writeObjectFieldStart("cpu");
                json.writeStringField("vendor", report.catalog().cpu().get().vendor());
                json.writeNumberField("family", report.catalog().cpu().get().family());
                json.writeNumberField("model", report.catalog().cpu().get().model());
                json.writeStringField("modelName", report.catalog().cpu().get().modelName());
                json.writeEndObject();
            }
            if (report.catalog().microarchitecture().isPresent()) {
                json.writeStringField("microarchitecture", report.catalog().microarchitecture().get().displayName());
            }
            json.writeEndObject();

            json.writeArrayFieldStart("events");
            for (EventStatus status : report.statuses()) {
                json.writeStartObject();
                json.writeStringField("name", status.event().name());
                json.writeStringField("group", status.group());
                json.writeNumberField("type", status.event().type());
                json.writeStringField("config", "0x" + Long.toHexString(status.event().config()));
                if (status.event().config1() != 0) {
                    json.writeStringField("config1", "0x" + Long.toHexString(status.event().config1()));
                }
                json.writeBooleanField("available", status.availability().isAvailable());
                if (status.availability().unavailableReason().isPresent()) {
                    json.writeStringField("reason", status.availability().unavailableReason().get());
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            if (report.catalog().fillSourcesUnknownReason().isPresent()) {
                json.writeStringField("fillSourceEventsUnknown", report.catalog().fillSourcesUnknownReason().get());
            }

            json.writeObjectFieldStart("remoteAccessSignal");
            json.writeBooleanField("hardwareAvailable", report.signalHardware().isAvailable());
            if (report.signalHardware().unavailableReason().isPresent()) {
                json.writeStringField("hardwareReason", report.signalHardware().unavailableReason().get());
            }
            if (report.signalDescription().isPresent()) {
                json.writeStringField("inUse", report.signalDescription().get());
            }
            json.writeEndObject();
            if (report.liveProblem().isPresent()) {
                json.writeStringField("live", report.liveProblem().get());
            }

            json.writeArrayFieldStart("intervals");
            for (Interval interval : report.intervals()) {
                json.writeStartObject();
                json.writeNumberField("intervalNanos", interval.intervalNanos());
                json.writeObjectFieldStart("counts");
                for (Map.Entry<String, Long> entry : interval.counts().entrySet()) {
                    json.writeNumberField(entry.getKey(), entry.getValue());
                }
                json.writeEndObject();
                json.writeObjectFieldStart("signal");
                json.writeStringField("source", interval.signal().source().name());
                json.writeNumberField("events", interval.signal().remoteEvents());
                json.writeNumberField("perSecond", interval.signal().perSecond());
                json.writeEndObject();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        out.println();
    }

    /** On a snapshot nothing was opened: "available" only means its settings allow the event. */
    private static String describe(Availability availability, boolean probed)
    {
        return availability.isAvailable() && !probed ? "allowed by the snapshot's settings (not probed)" : availability.toString();
    }

    private static double perSecond(long count, long nanos)
    {
        return nanos == 0 ? 0 : count * 1e9 / nanos;
    }

    private static void sleep(long millis)
    {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sampling counters", e);
        }
    }
}
