package io.chiplet.settings;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Reads core's {@link PluginSettings} declarations under one engine's keys: the reading both plugins share, so that
 * each keeps only its key names and what it does with a bad value (Spark's and Trino's fail-open edges). Values are
 * stripped of surrounding blanks; a bad one is an {@link InvalidSettingException} naming the engine's key, the value and
 * what the declaration accepts.
 */
public final class PluginSettingsReader
{
    private final Map<Setting<?>, String> keys;
    private final SettingsReader values;

    private PluginSettingsReader(Map<Setting<?>, String> keys, SettingsReader values)
    {
        this.keys = keys;
        this.values = values;
    }

    /**
     * @param keys the engine's key of each declaration it reads
     * @param given the engine's configuration; entries under other keys are ignored
     */
    public static PluginSettingsReader of(Map<Setting<?>, String> keys, Map<String, String> given)
    {
        requireNonNull(keys, "keys is null");
        requireNonNull(given, "given is null");
        Map<String, String> ours = new TreeMap<>();
        keys.values().forEach(key -> {
            String value = given.get(key);
            if (value != null) {
                ours.put(key, value.strip());
            }
        });
        return new PluginSettingsReader(Map.copyOf(keys), new SettingsReader(ours));
    }

    /**
     * Rejects the first key (in name order) of {@code given} that the engine claims as its own but that is none of its
     * settings: a misspelt setting quietly left at its default would look like the plugin ignoring the user.
     *
     * @param claimed whether a key is the engine's (its prefix)
     * @param known every key the engine reads
     * @param expected what a bad key's warning says was expected
     * @throws InvalidSettingException naming that key, its value and {@code expected}
     */
    public static void rejectUnknown(Map<String, String> given, Predicate<String> claimed, Collection<String> known, String expected)
    {
        requireNonNull(given, "given is null");
        requireNonNull(claimed, "claimed is null");
        requireNonNull(known, "known is null");
        requireNonNull(expected, "expected is null");
        new TreeMap<>(given).forEach((key, value) -> {
            if (claimed.test(key) && !known.contains(key)) {
                throw new InvalidSettingException(key, value.strip(), expected);
            }
        });
    }

    /**
     * {@code setting}'s value under the engine's key, or its declared default.
     *
     * @throws InvalidSettingException naming the engine's key, the value (or the default) and what the declaration accepts
     */
    public <T> T read(Setting<T> setting)
    {
        return values.read(key(setting), setting);
    }

    /** {@code setting}'s value under the engine's key where it is given; empty where it is not. */
    public <T> Optional<T> readIfSet(Setting<T> setting)
    {
        return values.readIfSet(key(setting), setting);
    }

    /**
     * {@code setting}'s value under the engine's key, or its declared default, also where the engine gives it no key
     * (a setting of the other engine's that a shared record holds).
     */
    public <T> T readOrDefault(Setting<T> setting)
    {
        requireNonNull(setting, "setting is null");
        if (keys.containsKey(setting)) {
            return read(setting);
        }
        return setting.defaultParsed().orElseThrow(() -> new IllegalArgumentException(setting.stem() + " has no default: read it with readIfKeyed"));
    }

    /** {@code setting}'s value under the engine's key where it is given; empty where it is not or the engine gives it no key. */
    public <T> Optional<T> readIfKeyed(Setting<T> setting)
    {
        requireNonNull(setting, "setting is null");
        return keys.containsKey(setting) ? readIfSet(setting) : Optional.empty();
    }

    /**
     * The engine's key of {@code setting}, for a message about it.
     *
     * @throws IllegalArgumentException where the engine gives it none
     */
    public String keyOf(Setting<?> setting)
    {
        return key(setting);
    }

    private String key(Setting<?> setting)
    {
        requireNonNull(setting, "setting is null");
        String key = keys.get(setting);
        if (key == null) {
            throw new IllegalArgumentException("the engine gives " + setting.stem() + " no key");
        }
        return key;
    }
}
