package io.chiplet.placement;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Deployment policies, named as in the chiplet OLAP study (Fogli et al., "OLAP on Modern Chiplet-Based Processors", PVLDB 17(11), 2024, §3.2 and §4.4), plus the
 * cache-conscious choice between its two WICP forms and CHARM's adaptive spread (Fogli et al., "CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System", EuroSys 2026).
 */
public enum Policy
{
    /** One worker for the machine: every worker may use every allowed CPU; nothing is pinned. */
    WIM("wim"),
    /** One worker per NUMA node: workers go round-robin over the nodes and use their node's CPUs and memory. */
    WIN("win"),
    /** Fill one chiplet (its physical cores, then their SMT siblings) before the next, package by package. */
    WICP_LOCAL("wicp-local"),
    /** One worker per chiplet in turn, alternating packages, so workers see the sum of the chiplets' L3. */
    WICP_MIXED("wicp-mixed"),
    /** One physical core (with its SMT siblings) per worker, cores taken in {@code wicp-local} order. */
    WIC("wic"),
    /** {@code wicp-local} or {@code wicp-mixed}, chosen from the working set against the L3 sizes (§4.4). */
    AUTO("auto"),
    /** CHARM: per-worker spread over chiplets, widened and narrowed at run time from remote-access rates. */
    ADAPTIVE("adaptive");

    private final String cliName;

    Policy(String cliName)
    {
        this.cliName = cliName;
    }

    /**
     * Whether a worker is pinned to its whole chiplet (the chiplet's usable CPUs) rather than to the CPUs the planner
     * picked inside it. The plan decides how many workers each chiplet gets; inside one L3 the kernel may balance
     * threads over the cores freely, which costs no locality and keeps a thread off a core something else keeps busy.
     * {@code auto} resolves to a {@code wicp} form and so pins alike; {@code wic} means one core per worker, {@code wim}
     * and {@code win} keep their machine- or node-wide sets.
     */
    public boolean pinsWholeChiplets()
    {
        return switch (this) {
            case WICP_LOCAL, WICP_MIXED, AUTO, ADAPTIVE -> true;
            case WIM, WIN, WIC -> false;
        };
    }

    /** The name used on the command line, in JSON and in engine settings. */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @throws IllegalArgumentException naming the valid policies when {@code name} is none of them
     */
    public static Policy parse(String name)
    {
        requireNonNull(name, "name is null");
        String wanted = name.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Policy policy : values()) {
            if (policy.cliName.equals(wanted)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown placement policy \"" + name + "\"; expected one of " + validNames());
    }

    public static String validNames()
    {
        return Arrays.stream(values()).map(Policy::cliName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString()
    {
        return cliName;
    }
}
