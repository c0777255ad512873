package io.chiplet.settings;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * One plugin setting, declared once for both engines the way airlift's {@code @Config} beans declare theirs: its name
 * stem (each engine adds its own prefix and spelling), the type of its value, the unit, the default, what is accepted
 * (the bounds, as the warning on a bad value says them) and what it does. The engines differ only in the key they
 * read it from; accepting, rejecting and defaulting are this declaration's.
 *
 * @param stem the name without an engine's prefix, words separated by dots and dashes ({@code adaptive.interval})
 * @param type the type of the parsed value
 * @param unit what a bare number counts ({@code milliseconds}, {@code events per interval}); empty for none
 * @param defaultValue the value where the setting is not given, as text a user could write; empty for a setting that is
 *         off (or decided elsewhere) until given
 * @param expected what is accepted, as the one warning on a bad value says it
 * @param description what the setting does, one line
 */
public record Setting<T>(String stem, Class<T> type, String unit, Optional<String> defaultValue, String expected, String description,
        ValueParser<T> parser)
{
    public Setting
    {
        requireNonNull(stem, "stem is null");
        requireNonNull(type, "type is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(defaultValue, "defaultValue is null");
        requireNonNull(expected, "expected is null");
        requireNonNull(description, "description is null");
        requireNonNull(parser, "parser is null");
        if (!stem.matches("[a-z]+([.-][a-z]+)*")) {
            throw new IllegalArgumentException("a setting's stem is lower-case words joined by dots or dashes: " + stem);
        }
    }

    /** A setting with a default. */
    static <T> Setting<T> of(String stem, Class<T> type, String unit, String defaultValue, String expected, String description, ValueParser<T> parser)
    {
        return new Setting<>(stem, type, unit, Optional.of(defaultValue), expected, description, parser);
    }

    /** A setting without a default: absent means off, or decided where it is used. */
    static <T> Setting<T> optional(String stem, Class<T> type, String unit, String expected, String description, ValueParser<T> parser)
    {
        return new Setting<>(stem, type, unit, Optional.empty(), expected, description, parser);
    }

    /**
     * A setting whose value is one of {@code choices} (an enum's constants, or those of them a setting allows), named
     * by {@code nameOf} in lower case and accepted in any case: parsed to the constant once, here, so no engine turns
     * it back into text. A bad value's warning lists the choices ({@code a, b or c}).
     */
    static <E extends Enum<E>> Setting<E> choice(String stem, Class<E> type, E defaultValue, List<E> choices, Function<E, String> nameOf, String description)
    {
        if (!choices.contains(defaultValue)) {
            throw new IllegalArgumentException(stem + ": the default " + defaultValue + " is not one of " + choices);
        }
        List<E> allowed = List.copyOf(choices);
        return of(stem, type, "", nameOf.apply(defaultValue), SettingValues.choiceList(allowed, nameOf), description,
                value -> SettingValues.parseChoice(value, allowed, nameOf));
    }

    /**
     * Parses {@code value} (already stripped of surrounding blanks).
     *
     * @throws UnusableValueException saying what was expected
     */
    public T parse(String value)
    {
        requireNonNull(value, "value is null");
        try {
            return requireNonNull(parser.parse(value), "parser returned null");
        }
        catch (UnusableValueException e) {
            // One wording per setting, whichever bound the value missed.
            throw new UnusableValueException(expected);
        }
    }

    /** The default, parsed; empty for a setting without one. */
    public Optional<T> defaultParsed()
    {
        return defaultValue.map(this::parse);
    }
}
