package io.chiplet.trino.connector;

import io.chiplet.settings.InvalidSettingException;
import io.chiplet.settings.PluginSettingsContract;
import io.chiplet.settings.Setting;
import io.chiplet.trino.measure.MeasureKeys;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A chiplet catalog's {@code chiplet.*} properties against core's declarations (the same table Spark runs). */
class TrinoSettingsContractTest
        extends PluginSettingsContract
{
    @Override
    protected List<Map<Setting<?>, String>> keyTables()
    {
        return List.of(TrinoSettings.DECLARED, MeasureKeys.DECLARED);
    }

    @Override
    protected Optional<String> rejection(String key, String value)
    {
        Map<String, String> properties = Map.of(key, value);
        if (TrinoSettings.parse(properties) instanceof TrinoSettings.Problem problem) {
            return Optional.of(problem.expected());
        }
        try {
            MeasureKeys.parse(properties);
            return Optional.empty();
        }
        catch (InvalidSettingException e) {
            return Optional.of(e.expected());
        }
    }

    @Override
    protected Set<String> readKeys()
    {
        Set<String> keys = new HashSet<>(TrinoSettings.PROPERTIES);
        keys.addAll(MeasureKeys.PROPERTIES);
        return keys;
    }

    @Override
    protected List<Path> docs()
    {
        return List.of(Path.of("../docs/trino.md"));
    }
}
