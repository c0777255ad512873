package io.chiplet.settings;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads an engine's plugin settings (Spark {@code spark.chiplet.*} entries, a Trino catalog's {@code chiplet.*}
 * properties) into typed values. Both plugins report a bad setting the same way: which setting, the value given and
 * what would have been accepted; a parser says only the last (by throwing {@link UnusableValueException}), the reader
 * adds the first two.
 */
public final class SettingsReader
{
    private final Map<String, String> values;

    /**
     * @param values the settings given, by name, values already stripped of surrounding blanks
     */
    public SettingsReader(Map<String, String> values)
    {
        this.values = Map.copyOf(requireNonNull(values, "values is null"));
    }

    /**
     * @throws InvalidSettingException naming the setting, its value (or the default) and what was expected
     */
    public <T> T read(String setting, String defaultValue, ValueParser<T> parser)
    {
        requireNonNull(setting, "setting is null");
        requireNonNull(defaultValue, "defaultValue is null");
        requireNonNull(parser, "parser is null");
        return parse(setting, values.getOrDefault(setting, defaultValue), parser);
    }

    /** The setting's value where it is given; empty where it is not, for settings without a default. */
    public <T> Optional<T> readIfSet(String setting, ValueParser<T> parser)
    {
        requireNonNull(setting, "setting is null");
        requireNonNull(parser, "parser is null");
        return Optional.ofNullable(values.get(setting)).map(value -> parse(setting, value, parser));
    }

    /**
     * {@code setting}'s value under {@code key}, or its declared default.
     *
     * @throws InvalidSettingException naming the key, its value (or the default) and what the declaration accepts
     * @throws IllegalArgumentException where the declaration has no default (read it with {@link #readIfSet(String, Setting)})
     */
    public <T> T read(String key, Setting<T> setting)
    {
        requireNonNull(setting, "setting is null");
        String defaultValue = setting.defaultValue()
                .orElseThrow(() -> new IllegalArgumentException(setting.stem() + " has no default: read it with readIfSet"));
        return read(key, defaultValue, setting::parse);
    }

    /** {@code setting}'s value under {@code key} where it is given; empty where it is not. */
    public <T> Optional<T> readIfSet(String key, Setting<T> setting)
    {
        requireNonNull(setting, "setting is null");
        return readIfSet(key, setting::parse);
    }

    private static <T> T parse(String setting, String value, ValueParser<T> parser)
    {
        try {
            return requireNonNull(parser.parse(value), "parser returned null");
        }
        catch (UnusableValueException e) {
            throw new InvalidSettingException(setting, value, e.expected());
        }
    }
}
