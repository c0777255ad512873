package io.chiplet.spark;

import io.chiplet.spark.driver.ChipletDriverPlugin;
import io.chiplet.spark.executor.ChipletExecutorPlugin;
import io.chiplet.spark.placement.TaskPlacement;
import io.chiplet.spark.placement.TaskPlacementFactory;
import io.chiplet.spark.settings.SparkSettings;
import io.chiplet.spark.topology.DiscoveredTopologySource;
import io.chiplet.spark.topology.TopologySource;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The chiplet plugin's driver and executor components, which {@link ChipletPlugin} (the class users name in
 * {@code spark.plugins}) hands to Spark once it has checked the JVM can run them. Settings are the
 * {@code spark.chiplet.*} entries ({@link SparkSettings}); any failure of the plugin leaves Spark running as
 * without it.
 */
public final class ChipletSparkPlugin
        implements SparkPlugin
{
    /** The class users name in {@code spark.plugins}; Spark also names the plugin's metrics source after it. */
    public static final String ENTRY_CLASS = "io.chiplet.spark.ChipletPlugin";

    private final TopologySource topologySource;
    private final TaskPlacementFactory placementFactory;

    /** What {@link ChipletPlugin} instantiates, by name. */
    public ChipletSparkPlugin()
    {
        this(topologySource(), TaskPlacementFactory.standard());
    }

    /** How executors read their machine; the demo prints the same. */
    public static TopologySource topologySource()
    {
        return new DiscoveredTopologySource();
    }

    ChipletSparkPlugin(TopologySource topologySource, TaskPlacementFactory placementFactory)
    {
        this.topologySource = requireNonNull(topologySource, "topologySource is null");
        this.placementFactory = requireNonNull(placementFactory, "placementFactory is null");
    }

    @Override
    public DriverPlugin driverPlugin()
    {
        return new ChipletDriverPlugin();
    }

    @Override
    public ExecutorPlugin executorPlugin()
    {
        return new ChipletExecutorPlugin(topologySource, placementFactory);
    }

    /** The executor side with each task's identity from {@code currentTask} instead of Spark's TaskContext ({@link TaskHooks}). */
    ChipletExecutorPlugin executorPlugin(Supplier<TaskPlacement.TaskIdentity> currentTask)
    {
        return new ChipletExecutorPlugin(topologySource, placementFactory, currentTask);
    }
}
