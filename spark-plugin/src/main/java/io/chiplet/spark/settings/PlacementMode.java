package io.chiplet.spark.settings;

import java.util.Locale;
import java.util.Optional;

/** How the plugin places work: {@code spark.chiplet.mode}. */
public enum PlacementMode
{
    /** One executor per machine; each task thread is pinned to its planned chiplet while it runs. */
    TASK,
    /** One executor per chiplet; the executor leases a chiplet on its host and binds its whole process to it. */
    EXECUTOR,
    /**
     * Chosen per executor from what it sees: {@link #TASK} when it owns its host or needs more than one chiplet,
     * {@link #EXECUTOR} when its cores fit in one chiplet and it shares the host with other executors.
     */
    AUTO;

    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<PlacementMode> fromConfigName(String name)
    {
        for (PlacementMode mode : values()) {
            if (mode.configName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
