package io.chiplet.jmh.tpch;

import io.chiplet.measure.MeasureReport;
import io.chiplet.measure.OnOffComparison;
import io.chiplet.measure.PairedBootstrap;
import io.chiplet.measure.RatioEstimate;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * The {@code docs/performance.md} section of one plugin on/off run: how it was run, each query's medians and ratio,
 * and the paired geometric mean with its bootstrap 95 % interval against the target. Pure: the caller passes the
 * clock's and the machine's readings in.
 *
 * @param title the section's heading, also its name in the report
 * @param command the command that repeats the run
 * @param method how the sides were run and interleaved, as a phrase ("after an untimed warm-up, a fresh SparkContext
 *         per side and round, alternating which side goes first")
 * @param settings one sentence on the settings both sides share, which makes the ratio the plugin's own
 * @param took the whole run's wall time, warm-up and start-ups included
 * @param peakLoad the highest 1-minute system load average seen, where the OS reports one
 * @param cpus the CPUs the load average is to be read against
 */
public record OnOffReport(String title, String command, String method, String settings, Instant start, Duration took, String jdk, OptionalDouble peakLoad, int cpus)
{
    /**
     * Where the whole 95 % interval must lie on a machine where placement cannot help (one L3: only the overhead
     * shows), and hold 1.0 or lie below it.
     */
    public static final double TARGET_LOW = 0.98;
    public static final double TARGET_HIGH = 1.02;

    public OnOffReport
    {
        requireNonNull(title, "title is null");
        requireNonNull(command, "command is null");
        requireNonNull(method, "method is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(start, "start is null");
        requireNonNull(took, "took is null");
        requireNonNull(jdk, "jdk is null");
        requireNonNull(peakLoad, "peakLoad is null");
    }

    /**
     * The run in core's report, the kind the plugins print at the end of an application: the same figure and verdict
     * rule (docs/measuring.md), with the run's method as its design.
     */
    public MeasureReport measureReport(OnOffComparison comparison)
    {
        return MeasureReport.ofRounds(comparison, PairedBootstrap.standard(), title, method, start.truncatedTo(ChronoUnit.SECONDS).toString(),
                List.of("Repeat with: " + command + "."));
    }

    /**
     * Prints the report's summary line and writes its JSON and HTML, {@code chiplet-measure-<name>.json} and
     * {@code .html}, into {@code directory} (made if missing).
     */
    public void writeMeasureReport(OnOffComparison comparison, Path directory, String name, PrintStream out)
            throws IOException
    {
        MeasureReport report = measureReport(comparison);
        out.println(report.summaryLine());
        Files.createDirectories(directory);
        String file = "chiplet-measure-" + name.replaceAll("[^A-Za-z0-9._-]+", "-");
        Files.writeString(directory.resolve(file + ".json"), report.json(), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve(file + ".html"), report.html(), StandardCharsets.UTF_8);
        out.println("chiplet bench: measurement report in " + directory.resolve(file + ".json") + " and .html");
    }

    public String render(OnOffComparison comparison)
    {
        requireNonNull(comparison, "comparison is null");
        StringBuilder md = new StringBuilder();
        md.append("## ").append(title).append("\n\n");
        md.append(String.format(Locale.ROOT, "Measured %s: `%s`, %s, %s (%s), JDK %s, %d s%s.%n%n",
                start.truncatedTo(ChronoUnit.SECONDS), command, count(comparison.queries().size(), "query", "queries"),
                count(comparison.rounds(), "interleaved round", "interleaved rounds"), method, jdk, took.toSeconds(),
                peakLoad.isPresent() ? String.format(Locale.ROOT, ", system load average up to %.1f on %d CPUs", peakLoad.getAsDouble(), cpus) : ""));
        if (peakLoad.isPresent() && peakLoad.getAsDouble() > 2.0 * cpus) {
            // The engine keeps every CPU busy itself; more than twice that means other processes ran too.
            md.append("**Other processes competed for the CPUs during this run, so the ratios below are mostly noise.**\n\n");
        }
        md.append(settings).append(" Times are each query's median over the rounds; its ratio is median on over median off.\n\n");
        md.append("| Query | on (s) | off (s) | on/off |\n|---|---:|---:|---:|\n");
        for (int query : comparison.queries()) {
            md.append(String.format(Locale.ROOT, "| q%d | %.3f | %.3f | %.3f |%n", query, comparison.medianOn(query), comparison.medianOff(query), comparison.ratio(query)));
        }
        RatioEstimate estimate = comparison.estimate(PairedBootstrap.standard());
        md.append(String.format(Locale.ROOT, "%n**Paired geometric mean on/off: %.3f, 95 %% CI [%.3f, %.3f]** (CI width %.3f; %s x %s, each query's on and off "
                        + "of the same round a pair, every query weighing the same; percentile bootstrap over queries and rounds, %d resamples, fixed seed). "
                        + "%s%n",
                estimate.ratio(), estimate.low(), estimate.high(), estimate.width(), count(comparison.queries().size(), "query", "queries"),
                count(comparison.rounds(), "round", "rounds"), estimate.resamples(), estimate.oneRound()
                        ? "With one round the interval holds only the spread between the queries: neither this machine's round-to-round noise nor "
                                + "the order of the sides (the plugin side ran first in every pair) is in it."
                        : String.format(Locale.ROOT, "One pair's ratio scatters by %.1f %% around its query's on this machine.", 100 * estimate.pairSpread())));
        if (estimate.noiseExplains()) {
            md.append("The interval holds 1.0: no difference between plugin on and off is measurable in this run.\n");
        }
        md.append(String.format(Locale.ROOT, "%nTarget on a single-L3 machine, where placement cannot help and only the overhead shows: the whole interval "
                + "within [%.2f, %.2f] and holding 1.0 or below it; %s.%n", TARGET_LOW, TARGET_HIGH, verdict(estimate, comparison.rounds())));
        return md.toString();
    }

    private static String count(int count, String one, String many)
    {
        return count + " " + (count == 1 ? one : many);
    }

    /** Judged on the figures as printed, so that the text never contradicts itself (1.0204 prints as 1.020, met). */
    static String verdict(RatioEstimate estimate, int rounds)
    {
        if (estimate.oneRound()) {
            return "**not judged**: one round cannot tell the plugin from the order the sides ran in; run at least 2 (`--rounds`)";
        }
        double low = printed(estimate.low());
        double high = printed(estimate.high());
        if (low > 1.0) {
            return "**not met**: the plugin measurably costs time here";
        }
        if (low >= TARGET_LOW && high <= TARGET_HIGH) {
            return "met";
        }
        if (high < 1.0) {
            return "the plugin measurably saves time here, which the target does not foresee on one L3: check that the sides ran alike";
        }
        // Were the whole width round-to-round noise, it would shrink as one over the root of the rounds.
        long needed = (long) Math.ceil(rounds * Math.pow(estimate.width() / (TARGET_HIGH - TARGET_LOW), 2));
        return ("**not met**: the interval is %.3f wide after %d rounds, the target %.2f; more rounds (`--rounds`) narrow the round-to-round part "
                + "of it (were all of it that, about %d rounds would do), a quieter machine both parts")
                .formatted(estimate.width(), rounds, TARGET_HIGH - TARGET_LOW, needed);
    }

    private static double printed(double value)
    {
        return Math.round(value * 1000) / 1000.0;
    }
}
