package io.chiplet.jmh.workload;

import java.util.Arrays;

/** Where a working set sits relative to the machine's L3 caches. */
public enum SizeClass
{
    /** Fits in one chiplet's L3. */
    BELOW_L3("below-l3"),
    /** Larger than one chiplet's L3, smaller than all L3s together. */
    BETWEEN("between"),
    /** Larger than all L3s together: memory bound. */
    BEYOND("beyond");

    private final String label;

    SizeClass(String label)
    {
        this.label = label;
    }

    public String label()
    {
        return label;
    }

    /**
     * @throws IllegalArgumentException naming the label and the accepted ones
     */
    public static SizeClass fromLabel(String label)
    {
        return Arrays.stream(values())
                .filter(value -> value.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown working-set size \"" + label + "\"; expected below-l3, between or beyond"));
    }
}
