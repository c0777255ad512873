package io.chiplet.trino.event;

import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsContract;
import io.chiplet.settings.Setting;
import io.chiplet.trino.session.SessionManagerSettings;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The coordinator's skew settings (event listener, session property manager) against core's declarations: the same
 * table as the plugins' catalog and Spark settings.
 */
class TrinoCoordinatorSettingsContractTest
        extends PluginSettingsContract
{
    private static final String NOT_USABLE = "is not usable: expected ";

    @Override
    protected List<Map<Setting<?>, String>> keyTables()
    {
        return List.of(SkewListenerSettings.DECLARED, Map.of(
                PluginSettings.SKEW_WINDOW_QUERIES, SessionManagerSettings.SKEW_WINDOW_QUERIES,
                PluginSettings.VIRTUAL_CHIPLET_CORES, SessionManagerSettings.VIRTUAL_CHIPLET_CORES,
                PluginSettings.WORKERS_PER_HOST, SessionManagerSettings.WORKERS_PER_HOST,
                PluginSettings.WORKERS, SessionManagerSettings.WORKERS));
    }

    @Override
    protected Optional<String> rejection(String key, String value)
    {
        try {
            if (SkewListenerSettings.KEYS.contains(key)) {
                SkewListenerSettings.parse(Map.of(key, value));
            }
            else {
                SessionManagerSettings.parse(Map.of(key, value));
            }
            return Optional.empty();
        }
        catch (IllegalArgumentException e) {
            String message = e.getMessage();
            return Optional.of(message.substring(message.indexOf(NOT_USABLE) + NOT_USABLE.length()));
        }
    }

    /**
     * The listener's keys and the session manager's counts; its paths and lists (rules file, fs-root, hwloc-xml,
     * session-defaults, state-dir) are read as before.
     */
    @Override
    protected Set<String> readKeys()
    {
        Set<String> keys = new HashSet<>(SkewListenerSettings.KEYS);
        keys.addAll(Set.of(SessionManagerSettings.SKEW_WINDOW_QUERIES, SessionManagerSettings.VIRTUAL_CHIPLET_CORES, SessionManagerSettings.WORKERS_PER_HOST,
                SessionManagerSettings.WORKERS));
        return keys;
    }

    @Override
    protected List<Path> docs()
    {
        return List.of(Path.of("../docs/trino-coordinator.md"));
    }
}
