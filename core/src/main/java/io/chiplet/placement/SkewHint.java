package io.chiplet.placement;

import java.util.Locale;

/**
 * What a stage's skew suggests (study §4.5.3: adjust the resources to the data distribution). The names are what the
 * engines show ({@code chiplet.runtime.skew} in Trino).
 */
public enum SkewHint
{
    /** Some task got far more input than the others: give its stage more chiplets, or more, smaller partitions. */
    SPREAD,
    /** Every task got less input than the consolidation bound: one chiplet per task, or fewer partitions and drivers. */
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
