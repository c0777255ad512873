package io.chiplet.spark.executor;

import io.chiplet.placement.HostDivision;
import io.chiplet.placement.PlacementDomain;
import io.chiplet.settings.PlacementMode;
import io.chiplet.settings.PlacementSettings;
import io.chiplet.spark.topology.TopologySource;
import io.chiplet.topology.Topology;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What an executor reads of its host before it takes anything: the machine, the part of it this JVM may use (computed
 * once, {@link PlacementDomain}), its cores and task slots, and the mode they resolve to.
 *
 * @param host the host as the topology source read it
 * @param processShare what this JVM may use of {@code host}: every chiplet holding one of its allowed CPUs
 * @param cores the executor's cores ({@code spark.executor.cores}, or the host's allowed CPUs)
 * @param taskSlots how many tasks run at once
 * @param mode the placement mode, {@code auto} resolved
 */
record ExecutorMachine(Topology host, PlacementDomain processShare, int cores, int taskSlots, PlacementMode mode)
{
    ExecutorMachine
    {
        requireNonNull(host, "host is null");
        requireNonNull(processShare, "processShare is null");
        requireNonNull(mode, "mode is null");
    }

    static ExecutorMachine read(TopologySource source, PlacementSettings settings, Map<String, String> conf, String executorId)
    {
        Topology host = source.read(settings);
        String command = System.getProperty("sun.java.command", "");
        int cores = ExecutorSlots.cores(conf, host.allowed().size(), command);
        int taskSlots = ExecutorSlots.of(conf, host.allowed().size(), command);
        PlacementDomain processShare = PlacementDomain.of(host);
        return new ExecutorMachine(host, processShare, cores, taskSlots, resolveMode(settings.mode(), processShare, cores, executorId));
    }

    /** Whether the host has one L3 at most: no chiplet to choose, so measuring has no control to draw. */
    boolean oneL3()
    {
        return processShare.ids().size() < 2;
    }

    /**
     * {@code auto}: core decides ({@link HostDivision#fitsOneChiplet}): an executor whose cores fit in one chiplet of a
     * shared host takes a chiplet for its whole process; one that owns its host, or anything between, places tasks
     * within its share. In local mode (executor {@code driver}) the process is the whole application: never bound whole.
     */
    static PlacementMode resolveMode(PlacementMode configured, PlacementDomain processShare, int cores, String executorId)
    {
        if (configured != PlacementMode.AUTO) {
            return configured;
        }
        if ("driver".equals(executorId)) {
            return PlacementMode.TASK;
        }
        return HostDivision.fitsOneChiplet(processShare, cores) ? PlacementMode.EXECUTOR : PlacementMode.TASK;
    }
}
