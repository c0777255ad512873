package io.chiplet.spark.settings;

import java.util.Locale;
import java.util.Optional;

/** Which native layer pins threads: {@code spark.chiplet.pinning.backend}. */
public enum PinningBackendChoice
{
    /** chiplet-core's own Java FFM downcalls (sched_setaffinity, set_mempolicy). */
    FFM,
    /** OpenHFT's Java-Thread-Affinity library, for users who already standardise on it. */
    OPENHFT;

    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<PinningBackendChoice> fromConfigName(String name)
    {
        for (PinningBackendChoice backend : values()) {
            if (backend.configName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return Optional.of(backend);
            }
        }
        return Optional.empty();
    }
}
