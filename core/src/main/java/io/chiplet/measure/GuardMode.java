package io.chiplet.measure;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What the plugin does when placement measurably slows work down. */
public enum GuardMode
{
    /** Stop placing once the evidence says placed work is slower ({@link PlacementGuard}); the default. */
    AUTO,
    /** Place whatever the measurement says; measuring and reporting go on. */
    ALWAYS;

    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<GuardMode> fromConfigName(String name)
    {
        return Arrays.stream(values()).filter(mode -> mode.configName().equals(name.trim().toLowerCase(Locale.ROOT))).findFirst();
    }
}
