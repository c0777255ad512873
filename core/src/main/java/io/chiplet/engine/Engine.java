package io.chiplet.engine;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** The engines chiplet-jvm adapts; each has a dialect package below this one that says its settings in its own words. */
public enum Engine
{
    SPARK, TRINO;

    /** The name on the command line ({@code chiplet advise --engine spark}). */
    public String cliName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The engine {@code name} names (any case, surrounding blanks ignored); empty when none does. */
    public static Optional<Engine> parse(String name)
    {
        requireNonNull(name, "name is null");
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(engine -> engine.cliName().equals(wanted)).findFirst();
    }

    /** The engines' names for a message: {@code spark or trino}. */
    public static String validNames()
    {
        List<String> names = Arrays.stream(values()).map(Engine::cliName).toList();
        return names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
