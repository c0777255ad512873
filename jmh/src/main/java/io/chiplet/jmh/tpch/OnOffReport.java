package io.chiplet.jmh.tpch;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * The {@code docs/performance.md} section of one plugin on/off run: how it was run, each query's medians and ratio,
 * and the geometric mean against the target. Pure: the caller passes the clock's and the machine's readings in.
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
    /** The most the plugin may cost where it cannot help: on one L3 only its overhead shows. */
    public static final double TARGET = 1.02;

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
        md.append(settings).append(" Times are each query's median over the rounds.\n\n");
        md.append("| Query | on (s) | off (s) | on/off |\n|---|---:|---:|---:|\n");
        for (int query : comparison.queries()) {
            md.append(String.format(Locale.ROOT, "| q%d | %.3f | %.3f | %.3f |%n", query, comparison.medianOn(query), comparison.medianOff(query), comparison.ratio(query)));
        }
        double geometricMean = comparison.geometricMean();
        md.append(String.format(Locale.ROOT, "%n**Geometric mean of the on/off ratios: %.3f** (the target on a single-L3 machine, where placement "
                + "cannot help and only the overhead shows: at most %.2f; %s).%n", geometricMean, TARGET, metTarget(geometricMean) ? "met" : "**not met**"));
        return md.toString();
    }

    private static String count(int count, String one, String many)
    {
        return count + " " + (count == 1 ? one : many);
    }

    /** Judged on the figure as printed, so that the text never contradicts itself (1.0204 prints as 1.020, met). */
    static boolean metTarget(double geometricMean)
    {
        return Math.round(geometricMean * 1000) <= Math.round(TARGET * 1000);
    }
}
