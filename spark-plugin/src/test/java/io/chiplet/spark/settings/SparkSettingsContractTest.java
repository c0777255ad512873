package io.chiplet.spark.settings;

import io.chiplet.settings.PluginSettings;
import io.chiplet.settings.PluginSettingsContract;
import io.chiplet.settings.Setting;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Spark's {@code spark.chiplet.*} settings against core's declarations (the same table Trino's catalog runs). */
class SparkSettingsContractTest
        extends PluginSettingsContract
{
    @Override
    protected List<Map<Setting<?>, String>> keyTables()
    {
        return List.of(SparkSettings.DECLARED, MeasureKeys.DECLARED);
    }

    @Override
    protected Optional<String> rejection(String key, String value)
    {
        Map<String, String> conf = Map.of(key, value);
        if (SparkSettings.parse(conf) instanceof SparkSettings.Problem problem) {
            return Optional.of(problem.expected());
        }
        if (MeasureKeys.parse(conf) instanceof MeasureKeys.Invalid invalid) {
            return Optional.of(invalid.problem().expected());
        }
        return Optional.empty();
    }

    @Override
    protected Set<String> readKeys()
    {
        return SparkSettings.KEYS;
    }

    @Override
    protected List<Path> docs()
    {
        return List.of(Path.of("../docs/spark.md"));
    }

    @Override
    protected String documentedDefault(Setting<?> setting)
    {
        // spark.chiplet.adaptive.intervalMs counts milliseconds: its docs give the bare number.
        return setting == PluginSettings.ADAPTIVE_INTERVAL ? Long.toString(PluginSettings.DEFAULT_ADAPTIVE_INTERVAL.toMillis()) : super.documentedDefault(setting);
    }
}
