package io.chiplet.settings;

/**
 * Turns a setting's text into its value, or throws {@link UnusableValueException} saying what it expected. A
 * {@link Setting} declares one; a {@link SettingsReader} applies it.
 */
@FunctionalInterface
public interface ValueParser<T>
{
    T parse(String value);
}
