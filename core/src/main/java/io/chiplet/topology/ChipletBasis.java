package io.chiplet.topology;

import java.util.Locale;

/** What defined a chiplet's boundary; its JSON name is the lower-case form with {@code +}. */
public enum ChipletBasis
{
    L3("l3"),
    L3_NUMA("l3+numa"),
    NUMA("numa"),
    CLUSTER("cluster"),
    DIE("die"),
    PACKAGE("package"),
    VIRTUAL("virtual");

    private final String jsonName;

    ChipletBasis(String jsonName)
    {
        this.jsonName = jsonName;
    }

    public String jsonName()
    {
        return jsonName;
    }

    public static ChipletBasis fromJsonName(String name)
    {
        for (ChipletBasis basis : values()) {
            if (basis.jsonName.equals(name.toLowerCase(Locale.ROOT))) {
                return basis;
            }
        }
        throw new IllegalArgumentException("unknown chiplet basis: " + name);
    }
}
