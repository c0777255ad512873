package io.chiplet.spark;

import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.TopologyDiscovery;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * Chiplet-aware Spark: {@code --conf spark.plugins=io.chiplet.spark.ChipletPlugin}. Settings are the
 * {@code spark.chiplet.*} entries ({@link ChipletSettings}); any failure of the plugin leaves Spark running as
 * without it.
 */
public final class ChipletPlugin
        implements SparkPlugin
{
    private final TopologySource topologySource;
    private final TaskPlacementFactory placementFactory;

    /** What Spark instantiates. */
    public ChipletPlugin()
    {
        // Pinning (io.chiplet.affinity) plugs in here, discovery (TopologyDiscovery) in topologySource().
        this(topologySource(), (settings, topology, metrics) -> switch (settings.mode()) {
            case TASK -> new UnplacedTaskPlacement();
            // mode=executor: ExecutorProcessPlacement (spark-exec branch)
            case EXECUTOR -> ExecutorProcessPlacement.create(settings, topology);
        });
    }

    /** How executors read their machine; the demo prints the same. */
    public static TopologySource topologySource()
    {
        // spark-exec branch: mode=executor needs the snapshot (fsRoot) read; the spark-task branch's source replaces this.
        return settings -> TopologyDiscovery.discover(settings.fsRoot().map(DiscoveryOptions::fsRoot).orElseGet(DiscoveryOptions::live)
                .withVirtualChipletCores(settings.virtualChipletCores()));
    }

    ChipletPlugin(TopologySource topologySource, TaskPlacementFactory placementFactory)
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
