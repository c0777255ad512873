package io.chiplet.topology;

import java.util.Locale;

/**
 * Whether the chiplets placement works with lie within L3 instances, which the JSON says ({@code l3Placement}) so that
 * a reader can tell a machine without L3 information from one whose L3 data were dropped as contradictory.
 */
public enum L3Placement
{
    /** Every online CPU is in an L3 instance the source reported; chiplets lie within them. */
    USED,
    /**
     * Some (or all) L3 instances contradicted each other (their lists overlap without being equal) and were dropped, naming the
     * files in {@link Topology#unknowns()}; chiplets lie within the other instances, and the CPUs of the dropped ones
     * form chiplets by package and NUMA node (basis {@code package} or {@code numa}).
     */
    CONTRADICTORY,
    /** The source reports no L3 (or none holding an online CPU): chiplets come from NUMA nodes, clusters, dies or packages. */
    NONE;

    /** The JSON spelling: {@code used}, {@code contradictory}, {@code none}. */
    public String jsonName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
