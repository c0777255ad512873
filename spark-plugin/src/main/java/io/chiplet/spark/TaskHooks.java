package io.chiplet.spark;

import com.codahale.metrics.MetricRegistry;
import io.chiplet.spark.executor.ChipletExecutorPlugin;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.spark.skew.SpreadHints;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;

import java.util.Map;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The executor plugin exactly as {@code spark.plugins=io.chiplet.spark.ChipletPlugin} creates it, outside a running
 * Spark: for benchmarks of the per-task hooks ({@code io.chiplet.jmh.SparkTaskHookBenchmark}). The task identity
 * comes from a supplier instead of Spark's {@code TaskContext}, and the driver answers nothing.
 */
public final class TaskHooks
{
    private TaskHooks() {}

    /**
     * A started executor plugin: {@code init} has run with {@code conf} (the {@code spark.chiplet.*} settings), so
     * {@link ExecutorPlugin#onTaskStart()} and {@link ExecutorPlugin#onTaskSucceeded()} go through the placement the
     * plugin chose for this machine. Call {@link ExecutorPlugin#shutdown()} when done.
     */
    public static Started start(Map<String, String> conf, Supplier<TaskPlacement.TaskIdentity> currentTask)
    {
        requireNonNull(conf, "conf is null");
        requireNonNull(currentTask, "currentTask is null");
        ChipletExecutorPlugin plugin = new ChipletSparkPlugin().executorPlugin(currentTask);
        StandaloneContext context = new StandaloneContext(conf);
        plugin.init(context, Map.of());
        return new Started(plugin, context.registry);
    }

    /** The plugin and the metrics it registered (empty when it switched itself off). */
    public record Started(ExecutorPlugin plugin, MetricRegistry metrics)
    {
        public Started
        {
            requireNonNull(plugin, "plugin is null");
            requireNonNull(metrics, "metrics is null");
        }

        /** Tasks the plugin counted; -1 when it registered no metrics (it switched itself off at init). */
        public long tasksCounted()
        {
            var gauge = metrics.getGauges().get("tasks");
            return gauge == null ? -1 : (Long) gauge.getValue();
        }
    }

    private static final class StandaloneContext
            implements PluginContext
    {
        private final SparkConf conf = new SparkConf(false);
        private final MetricRegistry registry = new MetricRegistry();

        StandaloneContext(Map<String, String> conf)
        {
            conf.forEach(this.conf::set);
        }

        @Override
        public MetricRegistry metricRegistry()
        {
            return registry;
        }

        @Override
        public SparkConf conf()
        {
            return conf;
        }

        @Override
        public String executorID()
        {
            return "benchmark";
        }

        @Override
        public String hostname()
        {
            return "localhost";
        }

        @Override
        public Map<String, ResourceInformation> resources()
        {
            return Map.of();
        }

        @Override
        public void send(Object message) {}

        @Override
        public Object ask(Object message)
        {
            return SpreadHints.NONE;
        }
    }
}
