package io.chiplet.settings;

import java.util.Locale;

/** How the Spark plugin places work: its {@code mode} setting ({@link PluginSettings#MODE}). */
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

    /** The name a setting gives: {@code task}, {@code executor} or {@code auto}. */
    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
