package io.chiplet.cli;

import io.chiplet.cli.CounterSampler.Interval;
import io.chiplet.perf.CounterAvailability;
import io.chiplet.perf.CounterScope;
import io.chiplet.perf.EventCatalog;
import io.chiplet.perf.PerfEventOpenException;
import io.chiplet.perf.PerfPlatform;
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
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;

/**
 * {@code chiplet counters}: which perf events can be counted here and exactly why the others cannot, then live
 * per-interval rates of the software events and of the remote-access signal for one thread. The command checks its
 * options and puts the parts together: the availability listing ({@link AvailabilityListing}), the sampling loop
 * ({@link CounterSampler}) and the output ({@link CountersText}, {@link CountersJson}).
 */
@Command(
        name = "counters",
        mixinStandardHelpOptions = true,
        description = {
                "Shows which perf events can be counted here, and live rates for one thread.",
                "Lists the events that can be counted and why the others cannot, then prints their rates per interval for one thread "
                        + "(this command's own thread by default)."})
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

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", converter = OutputFormat.TextOrJsonConverter.class,
            description = "Output format: text or json (default: ${DEFAULT-VALUE}).")
    private OutputFormat format;

    @Option(names = "--fs-root", paramLabel = "DIR", defaultValue = "/", description = "Read proc/ and sys/ under DIR instead of / (a snapshot: no live counting).")
    private Path fsRoot;

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
        CounterScope target = tid == null ? CounterScope.callingThread() : CounterScope.thread(tid);
        // a snapshot says nothing about this kernel, so only the pure decision applies to it
        CounterAvailability.Probe probe = live ? CounterAvailability.SYSCALL_PROBE : (event, probed) -> OptionalInt.empty();

        if (tid != null && live && !Files.exists(Path.of("/proc/" + tid))) {
            err.println("chiplet counters: --tid " + tid + ": no such thread (/proc/" + tid + " does not exist)");
            return 1;
        }

        AvailabilityListing listing = AvailabilityListing.gather(catalog, target, platform, probe);

        List<Interval> intervals = new ArrayList<>();
        Optional<String> signalDescription = Optional.empty();
        Optional<String> liveProblem = live ? Optional.empty() : Optional.of("live counting skipped: --fs-root " + fsRoot + " is a snapshot, not this machine");
        if (live && count > 0) {
            try {
                signalDescription = Optional.of(CounterSampler.sample(target, platform, catalog, listing.statuses(), count, intervalMillis, intervals));
            }
            catch (PerfEventOpenException e) {
                liveProblem = Optional.of("live counting failed: " + e.getMessage());
            }
        }

        CountersReport report = new CountersReport(live, platform, catalog, target, listing.statuses(), listing.signalHardware(), signalDescription, intervals, liveProblem);
        try {
            if (format == OutputFormat.JSON) {
                CountersJson.write(out, report);
            }
            else {
                CountersText.write(out, report);
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
}
