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
    WIM("wim", Unit.MACHINE, SlotOrder.LEAST_BUSY_CHIPLET, Adaptation.NONE),
    /** One worker per NUMA node: workers go round-robin over the nodes and use their node's CPUs and memory. */
    WIN("win", Unit.NUMA_NODE, SlotOrder.LEAST_BUSY_CHIPLET, Adaptation.NONE),
    /** Fill one chiplet (its physical cores, then their SMT siblings) before the next, package by package. */
    WICP_LOCAL("wicp-local", Unit.CHIPLET, SlotOrder.PLAN_ORDER, Adaptation.NONE),
    /** One worker per chiplet in turn, alternating packages, so workers see the sum of the chiplets' L3. */
    WICP_MIXED("wicp-mixed", Unit.CHIPLET, SlotOrder.LEAST_BUSY_CHIPLET, Adaptation.NONE),
    /** One physical core (with its SMT siblings) per worker, cores taken in {@code wicp-local} order. */
    WIC("wic", Unit.CORE, SlotOrder.PLAN_ORDER, Adaptation.NONE),
    /** {@code wicp-local} or {@code wicp-mixed}, chosen from the working set against the L3 sizes (§4.4). */
    AUTO("auto", Unit.CHIPLET, SlotOrder.LEAST_BUSY_CHIPLET, Adaptation.NONE),
    /** CHARM: per-worker spread over chiplets, widened and narrowed at run time from remote-access rates. */
    ADAPTIVE("adaptive", Unit.CHIPLET, SlotOrder.LEAST_BUSY_CHIPLET, Adaptation.SPREAD_FROM_REMOTE_ACCESSES);

    /** What one worker is bound to. */
    public enum Unit
    {
        /** Nothing: the worker may run on every allowed CPU and allocate on any node ({@code wim}). */
        MACHINE,
        /** Its NUMA node's allowed CPUs and memory. */
        NUMA_NODE,
        /** A whole chiplet's allowed CPUs (inside one L3 the kernel balances threads at no cost in locality). */
        CHIPLET,
        /** One physical core with its SMT siblings. */
        CORE
    }

    /**
     * Which free slot a worker that comes and goes (a Spark task thread) takes. Only the order differs; which CPUs each
     * slot binds is the plan's.
     */
    public enum SlotOrder
    {
        /** The first free slot in plan order: one chiplet fills before the next is used. */
        PLAN_ORDER,
        /** The free slot on the least busy chiplet: load spreads over the chiplets. */
        LEAST_BUSY_CHIPLET
    }

    /** Whether, and on what, the placement changes while the engine runs. */
    public enum Adaptation
    {
        /** Placed once (and again only when the allowed CPUs change). */
        NONE,
        /** CHARM: each worker's spread over chiplets is widened or narrowed from its remote-access rate at run time. */
        SPREAD_FROM_REMOTE_ACCESSES
    }

    /**
     * How a whole process placed as one worker is bound (Spark's {@code spark.chiplet.mode=executor},
     * {@code chiplet exec --policy}): one rule for every adapter, applied by {@link HostDivision#processTarget}.
     */
    public enum ProcessBinding
    {
        /** Nothing: no lease, no CPUs, no memory policy. */
        NOTHING,
        /**
         * The whole chiplet the process leases (host-wide, so processes take distinct chiplets while any is free), and
         * under the memory rule its node. The smallest unit that holds a process of many threads: one core would starve
         * it, and a whole node would overlap the chiplets other processes leased.
         */
        LEASED_CHIPLET
    }

    private final String cliName;
    private final Unit unit;
    private final SlotOrder slotOrder;
    private final Adaptation adaptation;

    Policy(String cliName, Unit unit, SlotOrder slotOrder, Adaptation adaptation)
    {
        this.cliName = cliName;
        this.unit = unit;
        this.slotOrder = slotOrder;
        this.adaptation = adaptation;
    }

    /** What one worker is bound to under this policy ({@code auto} resolves to a chiplet policy). */
    public Unit unit()
    {
        return unit;
    }

    /** Whether a worker is bound at all: every policy but {@code wim}. */
    public boolean bindsWorkers()
    {
        return unit != Unit.MACHINE;
    }

    /** Which free slot a worker that comes and goes takes. */
    public SlotOrder slotOrder()
    {
        return slotOrder;
    }

    /** What changes at run time: an adapter runs the adaptive loop exactly when this is not {@link Adaptation#NONE}. */
    public Adaptation adaptation()
    {
        return adaptation;
    }

    /** Whether the placement changes at run time (the adaptive loop runs). */
    public boolean adaptsAtRunTime()
    {
        return adaptation != Adaptation.NONE;
    }

    /** How a whole process placed as one worker is bound: nothing where workers are not bound, else its leased chiplet. */
    public ProcessBinding processBinding()
    {
        return bindsWorkers() ? ProcessBinding.LEASED_CHIPLET : ProcessBinding.NOTHING;
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
        return unit == Unit.CHIPLET;
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
