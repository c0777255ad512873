package io.chiplet.engine.spark;

import java.util.Map;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * How many executors a Spark application will have once it has started them, read from its settings the way Spark
 * itself reads them, so a partition figure sized for fewer executors can be called provisional. Executors report
 * seconds after the SparkContext starts (YARN, Kubernetes and Standalone start them then), and every session made
 * meanwhile would otherwise keep a figure sized for the first executor to report.
 *
 * <ul>
 * <li>{@code local[...]}: one executor, the driver itself; {@code local-cluster[n,...]}: {@code n}.</li>
 * <li>Dynamic allocation: Spark's initial target, the largest of {@code spark.dynamicAllocation.minExecutors},
 * {@code spark.dynamicAllocation.initialExecutors} and {@code spark.executor.instances}; none when that is 0.</li>
 * <li>Standalone ({@code spark://}): {@code spark.cores.max / spark.executor.cores} when both are set (Spark
 * starts that many); else unknown (one executor per worker, or as many as cores allow).</li>
 * <li>YARN and Kubernetes: {@code spark.executor.instances}, by default 2 as there.</li>
 * </ul>
 *
 * @param executors how many to expect, when the settings say
 * @param reason where that figure (or its absence) comes from, for the log
 */
public record SparkExecutorExpectation(OptionalInt executors, String reason)
{
    static final int CLUSTER_DEFAULT_INSTANCES = 2;

    public SparkExecutorExpectation
    {
        requireNonNull(executors, "executors is null");
        requireNonNull(reason, "reason is null");
    }

    public static SparkExecutorExpectation of(Map<String, String> conf)
    {
        requireNonNull(conf, "conf is null");
        String master = conf.getOrDefault("spark.master", "").strip();
        if (master.startsWith("local-cluster[")) {
            String[] parts = master.substring("local-cluster[".length(), master.length() - 1).split(",");
            OptionalInt workers = positive(parts[0]);
            return workers.isPresent()
                    ? expect(workers.getAsInt(), "spark.master = " + master)
                    : unknown("spark.master = " + master + " names no number of workers");
        }
        if (master.startsWith("local")) {
            return expect(1, "local mode: the driver is the one executor");
        }
        if (Boolean.parseBoolean(conf.getOrDefault("spark.dynamicAllocation.enabled", "false").strip())) {
            int initial = Math.max(intOf(conf, "spark.dynamicAllocation.minExecutors"),
                    Math.max(intOf(conf, "spark.dynamicAllocation.initialExecutors"), intOf(conf, "spark.executor.instances")));
            return initial > 0
                    ? expect(initial, "dynamic allocation's initial executors (largest of minExecutors, initialExecutors, spark.executor.instances)")
                    : unknown("dynamic allocation starts with no executors and follows the load");
        }
        if (master.startsWith("spark://")) {
            OptionalInt coresMax = positive(conf.get("spark.cores.max"));
            OptionalInt executorCores = positive(conf.get("spark.executor.cores"));
            if (coresMax.isPresent() && executorCores.isPresent()) {
                return expect(Math.max(1, coresMax.getAsInt() / executorCores.getAsInt()), "spark.cores.max / spark.executor.cores in Standalone");
            }
            return unknown("Standalone without both spark.cores.max and spark.executor.cores starts as many executors as the workers have room for");
        }
        OptionalInt instances = positive(conf.get("spark.executor.instances"));
        if (instances.isPresent()) {
            return expect(instances.getAsInt(), "spark.executor.instances");
        }
        if (master.startsWith("yarn") || master.startsWith("k8s://")) {
            return expect(CLUSTER_DEFAULT_INSTANCES, "spark.executor.instances is unset: " + CLUSTER_DEFAULT_INSTANCES + ", its default on YARN and Kubernetes");
        }
        return unknown("the settings name no number of executors");
    }

    /** Whether {@code reported} executors are all that are expected; never when the number is unknown. */
    public boolean complete(int reported)
    {
        return executors.isPresent() && reported >= executors.getAsInt();
    }

    /** "2 of 3 expected executors", "2 executors (how many to expect is unknown: ...)". */
    public String describe(int reported)
    {
        if (executors.isPresent()) {
            return reported + " of " + executors.getAsInt() + " expected executor" + (executors.getAsInt() == 1 ? "" : "s") + " (" + reason + ")";
        }
        return reported + " executor" + (reported == 1 ? "" : "s") + " (how many to expect is unknown: " + reason + ")";
    }

    private static SparkExecutorExpectation expect(int executors, String reason)
    {
        return new SparkExecutorExpectation(OptionalInt.of(executors), reason);
    }

    private static SparkExecutorExpectation unknown(String reason)
    {
        return new SparkExecutorExpectation(OptionalInt.empty(), reason);
    }

    private static int intOf(Map<String, String> conf, String key)
    {
        return positive(conf.get(key)).orElse(0);
    }

    private static OptionalInt positive(String value)
    {
        if (value == null) {
            return OptionalInt.empty();
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            return parsed > 0 ? OptionalInt.of(parsed) : OptionalInt.empty();
        }
        catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
