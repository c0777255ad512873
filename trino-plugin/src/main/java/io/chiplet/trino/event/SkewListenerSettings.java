package io.chiplet.trino.event;

import io.chiplet.placement.SkewRule;
import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.Setting;
import io.chiplet.settings.SettingsReader;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The settings of the {@code chiplet} event listener, read from {@code etc/event-listener.properties} (Trino passes
 * every entry but {@code event-listener.name}).
 */
final class SkewListenerSettings
{
    static final String MAX_OVER_MEDIAN = "chiplet.skew.max-over-median";
    static final String MIN_STAGE_ROWS = "chiplet.skew.min-stage-rows";
    static final String CONSOLIDATE_BELOW_BYTES = "chiplet.skew.consolidate-below-bytes";
    static final Set<String> KEYS = Set.of(MAX_OVER_MEDIAN, MIN_STAGE_ROWS, CONSOLIDATE_BELOW_BYTES);
    /** Each setting's property, by core's declaration (which holds its type, default and bounds). */
    static final Map<Setting<?>, String> DECLARED = Map.of(
            PluginSettings.SKEW_MAX_OVER_MEDIAN, MAX_OVER_MEDIAN,
            PluginSettings.SKEW_MIN_STAGE_ROWS, MIN_STAGE_ROWS,
            PluginSettings.SKEW_CONSOLIDATE_BELOW_BYTES, CONSOLIDATE_BELOW_BYTES);

    private SkewListenerSettings() {}

    /**
     * @throws IllegalArgumentException naming the first setting that is not usable, its value and what was expected
     */
    static SkewRule.Thresholds parse(Map<String, String> config)
    {
        requireNonNull(config, "config is null");
        for (String key : new TreeSet<>(config.keySet())) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("%s is not a setting of the chiplet event listener: expected one of %s".formatted(key, String.join(", ", new TreeSet<>(KEYS))));
            }
        }
        SettingsReader settings = new SettingsReader(stripped(config));
        try {
            return new SkewRule.Thresholds(
                    settings.read(MAX_OVER_MEDIAN, PluginSettings.SKEW_MAX_OVER_MEDIAN),
                    settings.read(MIN_STAGE_ROWS, PluginSettings.SKEW_MIN_STAGE_ROWS),
                    settings.read(CONSOLIDATE_BELOW_BYTES, PluginSettings.SKEW_CONSOLIDATE_BELOW_BYTES));
        }
        catch (InvalidSettingException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static Map<String, String> stripped(Map<String, String> config)
    {
        Map<String, String> values = new HashMap<>();
        config.forEach((key, value) -> values.put(key, value.strip()));
        return values;
    }
}
