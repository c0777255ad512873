package io.chiplet.cli;

import io.chiplet.cli.AvailabilityListing.EventStatus;
import io.chiplet.cli.CounterSampler.Interval;
import io.chiplet.perf.Availability;
import io.chiplet.perf.PerfEvent;
import io.chiplet.perf.SignalSource;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** {@code chiplet counters --format text}: the availability listing, then one line per interval. */
final class CountersText
{
    private CountersText() {}

    static void write(PrintWriter out, CountersReport report)
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
        String previous = "";
        for (EventStatus status : report.statuses()) {
            if (!status.group().equals(currentGroup)) {
                currentGroup = status.group();
                previous = "";
                out.println(currentGroup + " events:");
            }
            String described = describe(status.availability(), report.probed());
            // A long reason shared by a run of events (no PMU: every hardware event) is said once.
            boolean repeated = described.equals(previous) && !status.availability().isAvailable();
            out.printf(Locale.ROOT, "  %-" + width + "s  %s%n", status.event().name(), repeated ? "unavailable: the same reason" : described);
            previous = described;
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
        Set<String> clocks = report.statuses().stream().map(EventStatus::event).filter(PerfEvent::countsNanoseconds).map(PerfEvent::name).collect(Collectors.toSet());
        // The software fallback is the thread's minor faults: a column of its own, read a few microseconds off the
        // group's, would show the same faults one interval apart now and then. Its rate is said to be that column instead.
        boolean signalIsMinorFaults = names.contains("minor-faults")
                && report.intervals().stream().allMatch(interval -> interval.signal().source() == SignalSource.SOFTWARE_FALLBACK);
        out.println("per second of wall time: the clocks in ms of CPU time, the other events in occurrences; "
                + (signalIsMinorFaults ? "remote-access: the signal in use is the minor-faults/s column" : "remote-access: the signal in use"));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%10s", "interval"));
        for (String name : names) {
            header.append(String.format(Locale.ROOT, "  %16s", name + (clocks.contains(name) ? " ms/s" : "/s")));
        }
        if (!signalIsMinorFaults) {
            header.append(String.format(Locale.ROOT, "  %16s", "remote-access/s"));
        }
        out.println(header);
        for (Interval interval : report.intervals()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%8.1fms", interval.intervalNanos() / 1e6));
            for (String name : names) {
                double rate = perSecond(interval.counts().get(name), interval.intervalNanos());
                line.append(String.format(Locale.ROOT, "  %16.1f", clocks.contains(name) ? rate / 1e6 : rate));
            }
            if (!signalIsMinorFaults) {
                // Over the row's own interval, as every other column.
                line.append(String.format(Locale.ROOT, "  %16.1f", perSecond(interval.signal().remoteEvents(), interval.intervalNanos())));
            }
            out.println(line);
        }
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
}
