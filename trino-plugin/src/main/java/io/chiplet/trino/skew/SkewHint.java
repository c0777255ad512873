package io.chiplet.trino.skew;

import java.util.Locale;

/**
 * What the skew of a source's recent queries suggests for its next ones (study §4.5.3: adjust the resources to the
 * data distribution). The names are what {@code chiplet.runtime.skew} shows.
 */
public enum SkewHint
{
    /** Some task got far more input than the others: more, smaller partitions and drivers for the next queries. */
    SPREAD,
    /** Every task got less input than one cache-sized partition: fewer partitions and drivers waste less. */
    CONSOLIDATE,
    NONE;

    public String configName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@link #NONE} for a name that is none of ours: a hint we cannot read asks for nothing. */
    public static SkewHint fromConfigName(String name)
    {
        for (SkewHint hint : values()) {
            if (hint.configName().equals(name)) {
                return hint;
            }
        }
        return NONE;
    }
}
