package io.chiplet.spark;

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

    static int of(Map<String, String> conf, int usableCpus)
    {
        int cores = localCores(conf.getOrDefault(MASTER, ""), usableCpus)
                .orElseGet(() -> positive(conf.get(EXECUTOR_CORES)).orElse(usableCpus));
        int taskCpus = positive(conf.get(TASK_CPUS)).orElse(1);
        return Math.max(1, cores / taskCpus);
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
