package io.chiplet.spark.executor;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many tasks an executor runs at once, from its Spark configuration: {@code local[N]} (or {@code local[*]}) in
 * local mode, else {@code spark.executor.cores}; divided by {@code spark.task.cpus}. Where neither says (standalone
 * gives an executor all of its worker's cores by default), the CPUs the executor may use. Pure.
 */
final class ExecutorSlots
{
    static final String MASTER = "spark.master";
    static final String EXECUTOR_CORES = "spark.executor.cores";
    static final String TASK_CPUS = "spark.task.cpus";

    private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:\\s*,\\s*\\d+)?])?");

    private ExecutorSlots() {}

    private static final Pattern BACKEND_CORES = Pattern.compile("(?:^|\\s)--cores\\s+(\\d+)(?:\\s|$)");

    static int of(Map<String, String> conf, int usableCpus)
    {
        return of(conf, usableCpus, "");
    }

    /**
     * @param javaCommand this JVM's main class and arguments ({@code sun.java.command}): an executor backend's
     *         {@code --cores N} is what the cluster manager gave this executor, which {@code spark.executor.cores}
     *         need not say (standalone and local-cluster leave it unset)
     */
    static int of(Map<String, String> conf, int usableCpus, String javaCommand)
    {
        int taskCpus = positive(conf.get(TASK_CPUS)).orElse(1);
        return Math.max(1, cores(conf, usableCpus, javaCommand) / taskCpus);
    }

    /** The cores this executor has: local[N], the backend's --cores, spark.executor.cores, else the usable CPUs. */
    static int cores(Map<String, String> conf, int usableCpus, String javaCommand)
    {
        return localCores(conf.getOrDefault(MASTER, ""), usableCpus)
                .orElseGet(() -> backendCores(javaCommand)
                        .orElseGet(() -> positive(conf.get(EXECUTOR_CORES)).orElse(usableCpus)));
    }

    /** {@code --cores N} of an executor backend's command line (CoarseGrained, YARN, Kubernetes). */
    static OptionalInt backendCores(String javaCommand)
    {
        if (javaCommand == null || !javaCommand.contains("ExecutorBackend")) {
            return OptionalInt.empty();
        }
        Matcher cores = BACKEND_CORES.matcher(javaCommand);
        return cores.find() ? positive(cores.group(1)) : OptionalInt.empty();
    }

    private static OptionalInt localCores(String master, int usableCpus)
    {
        Matcher local = LOCAL.matcher(master.trim().toLowerCase(Locale.ROOT));
        if (!local.matches()) {
            return OptionalInt.empty();
        }
        String threads = local.group(1);
        if (threads == null) {
            return OptionalInt.of(1);
        }
        return threads.equals("*") ? OptionalInt.of(usableCpus) : positive(threads);
    }

    private static OptionalInt positive(String value)
    {
        if (value == null) {
            return OptionalInt.empty();
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            return parsed > 0 ? OptionalInt.of(parsed) : OptionalInt.empty();
        }
        catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
