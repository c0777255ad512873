package io.chiplet.spark.placement;

import io.chiplet.spark.settings.SparkSettings;

/** Makes an executor's {@link TaskPlacement} once its settings and machine are known. */
@FunctionalInterface
public interface TaskPlacementFactory
{
    TaskPlacement create(PlacementContext context);

    /** The plugin's own: the one place {@code spark.chiplet.mode} is decided. */
    static TaskPlacementFactory standard()
    {
        return context -> switch (context.settings().mode()) {
            case TASK -> BoundTaskPlacement.live(context);
            case EXECUTOR -> ExecutorProcessPlacement.create(context.settings(), context.topology(), context.leaseCoordinator());
            case AUTO -> throw new IllegalStateException(SparkSettings.MODE + " auto must be resolved per executor before placing");
        };
    }
}
