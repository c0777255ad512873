package io.chiplet.it;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin's own CPU time in an executor JVM, two ways: what the plugin read from the JVM (its {@code chiplet-*}
 * threads' CPU clocks, logged by each executor at its end, {@code OwnCpu.breakdown}) and what the kernel says of the
 * same threads from outside ({@code utime + stime} of {@code /proc/<pid>/task/<tid>/stat}, read while the executor
 * still runs). Both come from the kernel's count of the threads' run time, so they differ by the reading's whole
 * clock ticks and by what the threads did between the two readings; a thread the plugin missed, or one it counted that
 * is not its own, shows as a larger difference. The task hooks run on Spark's task threads, which {@code /proc}
 * cannot split, so they are not part of the check.
 */
final class PluginThreadsCpu
{
    static final String PREFIX = "chiplet-";
    /** What the threads may do between the outside reading and the executor's end (idle sender rounds, the last counts). */
    static final long BETWEEN_READINGS_MILLIS = 25;
    static final String LOGGED_PREFIX = "Chiplet plugin's own CPU on executor ";
    private static final Pattern LOGGED = Pattern.compile(
            "Chiplet plugin's own CPU on executor (\\S+), read from this JVM's CPU clocks: ([0-9.]+) ms: threads ([0-9.]+) ms \\(([^)]*)\\), hooks ([0-9.]+) ms");
    private static final Pattern EXECUTOR_ID = Pattern.compile("--executor-id (\\S+)");

    /** One executor's two readings, in milliseconds. */
    record Readings(String executorId, Map<String, Long> outside, Map<String, Double> logged, double loggedThreads, double loggedHooks)
    {
        long outsideTotal()
        {
            return outside.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Two clock ticks per thread (utime and stime are each whole ticks) and what it may do between readings. */
        double tolerance(long tickMillis)
        {
            return 2.0 * tickMillis * Math.max(1, logged.size()) + BETWEEN_READINGS_MILLIS;
        }

        String describe()
        {
            return "executor %s: /proc %s (%d ms), plugin %s (%.1f ms; hooks %.1f ms)".formatted(executorId, outside, outsideTotal(), logged, loggedThreads, loggedHooks);
        }
    }

    private PluginThreadsCpu() {}

    /** The {@code chiplet-*} threads' CPU time of each executor JVM from {@code /proc}, by executor id. */
    static Map<String, Map<String, Long>> readOutside(List<ProcessHandle> processes)
    {
        Map<String, Map<String, Long>> byExecutor = new TreeMap<>();
        for (ProcessHandle process : processes) {
            String command = ProcFiles.commandLine(process.pid());
            Matcher id = EXECUTOR_ID.matcher(command);
            if (command.contains("CoarseGrainedExecutorBackend") && id.find()) {
                byExecutor.put(id.group(1), ProcFiles.threadCpuMillis(process.pid(), PREFIX));
            }
        }
        return byExecutor;
    }

    /** The outside readings joined with the executors' logged figures; every executor read must have logged one. */
    static List<Readings> join(Map<String, Map<String, Long>> outside, Collection<String> executorLogs)
    {
        Map<String, java.util.regex.MatchResult> logged = new HashMap<>();
        for (String log : executorLogs) {
            Matcher line = LOGGED.matcher(log);
            while (line.find()) {
                logged.put(line.group(1), line.toMatchResult());
            }
        }
        assertThat(logged.keySet()).as("executors that logged their plugin's own CPU, of those read from /proc; the logs' ends:%n%s",
                executorLogs.stream().map(log -> log.lines().skip(Math.max(0, log.lines().count() - 15)).collect(java.util.stream.Collectors.joining("\n"))).collect(java.util.stream.Collectors.joining("\n==>\n")))
                .containsAll(outside.keySet());
        return outside.entrySet().stream().map(entry -> {
            java.util.regex.MatchResult line = logged.get(entry.getKey());
            Map<String, Double> byName = new TreeMap<>();
            for (String part : line.group(4).split(", ")) {
                if (!part.equals("none")) {
                    int space = part.lastIndexOf(' ', part.length() - 4);
                    byName.put(part.substring(0, space), Double.parseDouble(part.substring(space + 1, part.length() - 3)));
                }
            }
            return new Readings(entry.getKey(), entry.getValue(), byName, Double.parseDouble(line.group(3)), Double.parseDouble(line.group(5)));
        }).toList();
    }

    /** The two readings agree: the same threads (names as the kernel truncates them) and the same time within {@link Readings#tolerance}. */
    static void assertAgree(Readings readings, long tickMillis)
    {
        assertThat(readings.outside().keySet()).as(readings.describe())
                .isEqualTo(readings.logged().keySet().stream().map(name -> name.substring(0, Math.min(15, name.length()))).collect(java.util.stream.Collectors.toSet()));
        assertThat(readings.loggedThreads()).as(readings.describe()).isCloseTo(readings.outsideTotal(), org.assertj.core.data.Offset.offset(readings.tolerance(tickMillis)));
    }
}
